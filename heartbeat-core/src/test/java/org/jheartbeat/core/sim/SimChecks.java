package org.jheartbeat.core.sim;

import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.ResourceSet;

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
     * peer's, or {@code -}. The decision of {@code ClusterLoop.takeSnapshot} (the {@code on} column), copied
     * here because it is private there; another branch moves it into a pure class, which this should then call.
     */
    static String statusPlace(NodeEngine engine, ClusterConfig config, int i) {
        var m = engine.machine();
        GroupState here = m.groupState(i);
        if (here == GroupState.RUNNING || here == GroupState.STARTING || here == GroupState.STOPPING
                || here == GroupState.BLOCKED) {
            return engine.me().value();
        }
        boolean peersOwn = config.resourceGroups().get(i).preferredNode().equals(engine.peer());
        ResourceSet peerHolds = m.peerHoldings();
        if (m.peerPresence().alive() && !m.disputed(i)
                && (peersOwn ? peerHolds.includesLocal() : peerHolds.includesForeign())) {
            return engine.peer().value();
        }
        return "-";
    }
}
