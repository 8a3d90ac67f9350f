package org.jheartbeat.core.wire;

import java.util.Objects;

/**
 * A packet or frame that cannot be accepted. Every decoder in this package throws only this type (or
 * its subclass {@link AuthenticationException}) for any input, however malformed; the message names
 * the offending offset or limit. Heartbeat 3.0.6 drops such packets (cluster-glue {@code
 * cl_netstring.c}, {@code cl_msg.c}); callers should drop and rate-limit their logging.
 */
public class WireFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why the input was refused. */
    public enum Reason {
        /** The first bytes are neither {@code ###\n} (netstring) nor {@code >>>\n} (classic). */
        UNKNOWN_FORMAT,
        /** The framing, a length, a type digit, a name or a value is invalid. */
        MALFORMED,
        /** The input exceeds {@link NetstringCodec#MAX_MESSAGE_BYTES}. */
        TOO_LARGE,
        /** The input is well formed but its authentication does not verify. */
        AUTH_FAILED
    }

    private final Reason reason;

    /**
     * @param reason  the category, not null
     * @param message a description naming the offset or limit involved
     */
    public WireFormatException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** The category of the failure. */
    public Reason reason() {
        return reason;
    }
}
