package org.jheartbeat.core.loop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.membership.LinkStatus;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.ResourceSet;

/** The {@code hb status} view of a cluster loop, read from its engine on the loop thread. */
final class LoopSnapshot {
    private LoopSnapshot() {
    }

    /**
     * @param config the configuration the loop runs
     * @param media  the loop's media, for their counters
     * @param recent the last operator-facing events, oldest first
     * @param health the loop's dropped frames and internal errors
     */
    static StatusSnapshot take(NodeEngine engine, ClusterConfig config, List<Medium> media, List<String> recent,
                               StatusSnapshot.LoopHealth health) {
        List<StatusSnapshot.NodeView> nodes = new ArrayList<>();
        nodes.add(new StatusSnapshot.NodeView(engine.me().value(), engine.localStatus().wireName(), true, Map.of()));
        Map<String, String> links = new LinkedHashMap<>();
        for (Map.Entry<String, LinkStatus> l : engine.detector().links(engine.peer()).entrySet()) {
            links.put(l.getKey(), l.getValue().wireName());
        }
        nodes.add(new StatusSnapshot.NodeView(engine.peer().value(),
                engine.detector().status(engine.peer()).wireName(), false, links));
        engine.pingNodes().statuses().forEach((name, st) ->
                nodes.add(new StatusSnapshot.NodeView(name, st.wireName(), false, Map.of(), "ping")));
        List<StatusSnapshot.GroupView> gv = new ArrayList<>();
        ResourceSet peerHolds = engine.machine().peerHoldings();
        boolean peerAlive = engine.machine().peerPresence().alive();
        for (int i = 0; i < config.resourceGroups().size(); i++) {
            ResourceGroupDecl g = config.resourceGroups().get(i);
            GroupState here = engine.machine().groupState(i);
            boolean peersOwn = g.preferredNode().equals(engine.peer());
            String on;
            if (here == GroupState.RUNNING || here == GroupState.STARTING || here == GroupState.STOPPING
                    || here == GroupState.BLOCKED) {
                on = engine.me().value();
            } else if (peerAlive && !engine.machine().disputed(i)
                    && (peersOwn ? peerHolds.includesLocal() : peerHolds.includesForeign())) {
                // rsc_hold is the peer's share; a disputed group runs on neither node whatever it says
                on = engine.peer().value();
            } else {
                on = "-";
            }
            String line = g.toString();
            gv.add(new StatusSnapshot.GroupView(g.key(), g.preferredNode().value(), here.displayName(), on,
                    line.substring(line.indexOf(' ') + 1), engine.machine().groupProblem(i), engine.disputeReason(i)
                    .map(r -> "defined differently on " + engine.peer() + " (" + r
                            + "); started by neither node until haresources agree").orElse(null)));
        }
        Map<String, Map<String, Long>> mediaStats = new LinkedHashMap<>();
        for (Medium m : media) {
            mediaStats.put(m.describe(), m.stats());
        }
        var machine = engine.machine();
        String rsc = engine.rscStatus();
        return new StatusSnapshot(engine.me().value(), engine.generation(),
                machine.state().name().toLowerCase(java.util.Locale.ROOT), rsc, nodes, gv,
                engine.badPackets().total(), engine.badPackets().bySource(), mediaStats,
                engine.machine().fenceStatus(), engine.configStatus(), recent, health);
    }
}
