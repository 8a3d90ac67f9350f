package org.jheartbeat.core.loop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.membership.LinkStatus;
import org.jheartbeat.core.protocol.NodeEngine;

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
        List<StatusSnapshot.GroupView> gv = StatusGroups.of(engine, config.resourceGroups());
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
