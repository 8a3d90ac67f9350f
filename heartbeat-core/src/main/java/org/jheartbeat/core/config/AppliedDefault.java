package org.jheartbeat.core.config;

import java.util.Objects;

/**
 * A default the configuration did not spell out and jheartbeat filled in, reported rather than
 * applied silently (STYLE rule 8). Not a problem: {@code hb config check --verbose} may list them.
 *
 * @param directive the ha.cf directive, e.g. {@code warntime}
 * @param value     the value used, e.g. {@code 1500ms}
 * @param reason    where the value comes from, e.g. {@code deadtime/2, as Heartbeat 3.0.6}
 */
public record AppliedDefault(String directive, String value, String reason) {
    public AppliedDefault {
        Objects.requireNonNull(directive, "directive");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@code warntime not set; using 1500ms (deadtime/2, as Heartbeat 3.0.6)}. */
    public String format() {
        return directive + " not set; using " + value + " (" + reason + ")";
    }
}
