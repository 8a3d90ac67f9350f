package org.jheartbeat.core.loop;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Maintenance;

/**
 * The decision of {@code hb maintenance off} once both nodes were probed, pure: a group leaving maintenance
 * that runs (even partly) here and runs on the peer too refuses the whole request, as Pacemaker refuses to
 * manage a resource active on two nodes until the operator stops one copy; otherwise what runs is adopted
 * where it runs and what runs nowhere is started where it belongs (docs/design/takeover.md, "Maintenance").
 * The daemon's loop and the simulator decide with it alike.
 */
public final class MaintenanceOff {
    private MaintenanceOff() {
    }

    /** The indices in {@code groups} of the group keys in {@code keys} (the peer's probe answers in keys). */
    public static Set<Integer> indicesOf(List<ResourceGroupDecl> groups, Set<String> keys) {
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < groups.size(); i++) {
            if (keys.contains(groups.get(i).key())) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * The groups of {@code leaving} that run on both nodes, each as {@code KEY (preferred node NODE)}: when
     * any, the request is refused and nothing changes.
     *
     * @param here   running here by the probe
     * @param partly partly running here by the probe
     * @param there  running on the peer (its probe, or its last report when it cannot be probed)
     */
    public static List<String> runOnBoth(List<ResourceGroupDecl> groups, Set<Integer> leaving, Set<Integer> here,
                                         Set<Integer> partly, Set<Integer> there) {
        List<String> twice = new ArrayList<>();
        for (int i : leaving) {
            if ((here.contains(i) || partly.contains(i)) && there.contains(i)) {
                twice.add(groups.get(i).key() + " (preferred node " + groups.get(i).preferredNode() + ")");
            }
        }
        return twice;
    }

    /**
     * The setting to apply: {@code next} as asked, or, when the setting changed meanwhile (the peer's
     * arrived during the probes), the current one with {@code scope} turned off.
     */
    public static Maintenance settingToApply(Maintenance now, Maintenance next, Maintenance.Scope scope) {
        return now.version() >= next.version() ? now.with(scope, false, now.version() + 1) : next;
    }

    /** One line per group of {@code leaving}: where it runs now and what was done with it. */
    public static List<String> outcome(List<ResourceGroupDecl> groups, Set<Integer> leaving, Set<Integer> here,
                                       Set<Integer> partly, Set<Integer> there, boolean peerAlive, NodeName me,
                                       NodeName peer) {
        List<String> where = new ArrayList<>();
        for (int i : leaving) {
            where.add(groups.get(i).key() + ": " + (here.contains(i) ? "runs on " + me + ", adopted"
                    : partly.contains(i) ? "runs partly on " + me + ", the rest started"
                    : there.contains(i) && !peerAlive ? "last reported running on " + peer
                    + ", which cannot be probed: left there, not started here"
                    : there.contains(i) ? "runs on " + peer + ", left there"
                    : "ran nowhere, started where it belongs"));
        }
        return where;
    }
}
