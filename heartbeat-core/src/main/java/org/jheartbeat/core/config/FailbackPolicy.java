package org.jheartbeat.core.config;

/**
 * ha.cf {@code auto_failback}: {@code on}, {@code off} or {@code legacy} (Heartbeat 3.0.6's default,
 * with a deprecation warning). {@code on} and {@code off} are Heartbeat's "nice_failback" modes.
 */
public enum FailbackPolicy {
    /** Groups go back to their preferred node as soon as it is up and stable again. */
    ON("on"),
    /** Groups stay where they are until an operator moves them. */
    OFF("off"),
    /** The pre-nice_failback behaviour: a returning node asks for its groups with ip-request. */
    LEGACY("legacy");

    private final String configName;

    FailbackPolicy(String configName) {
        this.configName = configName;
    }

    /** The spelling in ha.cf. */
    public String configName() {
        return configName;
    }
}
