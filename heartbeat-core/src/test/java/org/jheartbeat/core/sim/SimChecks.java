package org.jheartbeat.core.sim;

import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.loop.StatusGroups;
import org.jheartbeat.core.protocol.NodeEngine;

/** Small pure helpers of the invariants: recognising a beat, and what {@code hb status} would show. */
final class SimChecks {
    private static final byte[] STATUS_LINE = "\nt=status\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private SimChecks() {
    }

    /** Whether a classic frame is a {@code status} message (a beat). */
    static boolean isStatus(byte[] classic) {
        outer:
        for (int i = 0; i + STATUS_LINE.length <= classic.length && i < 64; i++) {
            for (int j = 0; j < STATUS_LINE.length; j++) {
                if (classic[i + j] != STATUS_LINE[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * Where {@code hb status} on the node of {@code engine} says group {@code i} runs: that node's name, the
     * peer's, or {@code -} (the {@code on} column: {@link StatusGroups}, which asks {@link
     * org.jheartbeat.core.takeover.GroupPlacement}; a place it only calls unconfirmed is {@code -}).
     */
    static String statusPlace(NodeEngine engine, ClusterConfig config, int i) {
        return StatusGroups.of(engine, config.resourceGroups()).get(i).runningOn();
    }
}
