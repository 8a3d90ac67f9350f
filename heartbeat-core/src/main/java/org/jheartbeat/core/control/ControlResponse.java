package org.jheartbeat.core.control;

/**
 * An answer on the control socket. On the wire its first line is {@code OK}, {@code ERR <reason>} or
 * {@code REFUSED <reason>} or {@code DENIED <reason>}, then the body.
 *
 * @param kind  whether the request succeeded, failed, or was refused without changing anything
 * @param error the reason when not ok (one line), else empty
 * @param body  the text to print (may be empty)
 */
public record ControlResponse(Kind kind, String error, String body) {
    /** How a request ended. */
    public enum Kind {
        /** Done. Wire head {@code OK}. */
        OK,
        /** Failed, cancelled, timed out, or the request was malformed. Wire head {@code ERR}. */
        ERROR,
        /**
         * Refused before anything changed, e.g. a hand-over while another is in progress (Heartbeat's
         * "Standby in progress- new request ... ignored"); trying again later may work. Wire head {@code REFUSED}.
         */
        REFUSED,
        /** The caller may not send this request (not root, not in the admin group). Wire head {@code DENIED}. */
        DENIED
    }

    /**
     * How an error answer about a resource group the daemon does not have begins (then the name asked and the
     * groups there are): a wrong argument, which {@code hb} reports as a usage error.
     */
    public static final String NO_SUCH_GROUP = "no resource group ";
    /**
     * How an error answer about a node ha.cf does not name begins (then the name asked and the nodes there): a
     * wrong argument as well.
     */
    public static final String NO_SUCH_NODE = "no node ";

    public ControlResponse {
        error = error.replace('\n', ' ');
    }

    public static ControlResponse ok(String body) {
        return new ControlResponse(Kind.OK, "", body);
    }

    public static ControlResponse error(String reason) {
        return new ControlResponse(Kind.ERROR, reason, "");
    }

    public static ControlResponse refused(String reason) {
        return new ControlResponse(Kind.REFUSED, reason, "");
    }

    public static ControlResponse denied(String reason) {
        return new ControlResponse(Kind.DENIED, reason, "");
    }

    /** Whether the request succeeded. */
    public boolean ok() {
        return kind == Kind.OK;
    }

    /** Whether the daemon refused the request without changing anything. */
    public boolean refused() {
        return kind == Kind.REFUSED;
    }

    /** The first line on the wire, without its newline. */
    String head() {
        return switch (kind) {
            case OK -> "OK";
            case ERROR -> "ERR " + error;
            case REFUSED -> "REFUSED " + error;
            case DENIED -> "DENIED " + error;
        };
    }
}
