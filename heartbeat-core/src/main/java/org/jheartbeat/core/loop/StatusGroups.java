package org.jheartbeat.core.loop;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.takeover.GroupPlacement;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.TakeoverMachine;

/**
 * The resource-group lines of a status snapshot ({@code hb status}, {@code --json}, metrics): each
 * group's state here and where it runs, decided by {@link GroupPlacement} from the engine's view (our
 * machine, the peer's {@code jhb-groups} report, its {@code rsc_hold} and failure records). Reads the
 * engine only: call on the thread that owns it (the loop's; a test's).
 */
public final class StatusGroups {
    private StatusGroups() {
    }

    /**
     * @param engine the node's engine
     * @param groups the groups it runs now (its configuration's, in haresources order)
     */
    public static List<StatusSnapshot.GroupView> of(NodeEngine engine, List<ResourceGroupDecl> groups) {
        TakeoverMachine m = engine.machine();
        List<StatusSnapshot.GroupView> out = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            ResourceGroupDecl g = groups.get(i);
            GroupState here = m.groupState(i);
            GroupPlacement.Placement p = GroupPlacement.decide(new GroupPlacement.Facts(engine.me(), engine.peer(),
                    here, m.peerPresence().alive(), engine.peerReport(g.key()), m.peerHoldings(),
                    g.preferredNode().equals(engine.peer()), m.peerFailed(i), m.disputed(i)));
            String line = g.toString();
            out.add(new StatusSnapshot.GroupView(g.key(), g.preferredNode().value(), here.displayName(), p.runningOn(),
                    line.substring(line.indexOf(' ') + 1), m.groupProblem(i), engine.disputeReason(i)
                    .map(r -> "defined differently on " + engine.peer() + " (" + r
                            + "); started by neither node until haresources agree").orElse(null),
                    p.unconfirmed(), p.note()));
        }
        return out;
    }
}
