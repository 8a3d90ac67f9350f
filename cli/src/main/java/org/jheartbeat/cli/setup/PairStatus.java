package org.jheartbeat.cli.setup;

import java.util.regex.Pattern;

/**
 * Reads a node's {@code hb status --json} answer (schema {@code jheartbeat.status/1}, see
 * {@code StatusSnapshot.toJson}) for what {@code hb setup} waits for: the other node listed as {@code active}.
 */
public final class PairStatus {
    private PairStatus() {
    }

    /**
     * Whether {@code statusJson} lists node {@code other} with status {@code active} (heard, and done with its
     * start-up exchange).
     */
    public static boolean seesActive(String statusJson, String other) {
        // the daemon writes compact JSON, name then status in each node object
        return Pattern.compile("\\{\"name\":\"" + Pattern.quote(other) + "\",\"status\":\"active\"")
                .matcher(statusJson).find();
    }
}
