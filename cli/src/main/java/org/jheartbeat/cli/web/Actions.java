package org.jheartbeat.cli.web;

import static org.jheartbeat.cli.web.Html.objects;
import static org.jheartbeat.cli.web.Html.str;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.ResourceSet;

/**
 * The console's actions, each the control request the matching {@code hb} command sends to the local daemon, and
 * what it will move, said before it is confirmed. Pure.
 */
public final class Actions {
    /** How long a hand-over from the console may take before the daemon answers, in s ({@code hb standby}'s default). */
    static final int HANDOVER_TIMEOUT_S = 120;

    private Actions() {
    }

    /** The actions offered, in the order of the buttons. */
    public enum Action {
        STANDBY("standby", "Standby"),
        TAKEOVER("takeover", "Takeover"),
        FAILBACK("failback", "Failback"),
        CLEANUP("cleanup", "Clean up failures"),
        MAINTENANCE_ON("maintenance-on", "Maintenance on"),
        MAINTENANCE_OFF("maintenance-off", "Maintenance off");

        private final String id;
        private final String title;

        Action(String id, String title) {
            this.id = id;
            this.title = title;
        }

        /** The name in URLs and forms ({@code maintenance-on}). */
        public String id() {
            return id;
        }

        /** The button's words. */
        public String title() {
            return title;
        }

        /** The action named {@code id}, if any. */
        public static Optional<Action> of(String id) {
            for (Action a : values()) {
                if (a.id.equals(id)) {
                    return Optional.of(a);
                }
            }
            return Optional.empty();
        }

        /** The control request it sends, as {@code hb standby all}, {@code hb failback}, {@code hb cleanup}, ... do. */
        public ControlRequest request() {
            return switch (this) {
                case STANDBY -> new ControlRequest.Handover(ControlRequest.HandoverKind.STANDBY, ResourceSet.ALL,
                        HANDOVER_TIMEOUT_S);
                case TAKEOVER -> new ControlRequest.Handover(ControlRequest.HandoverKind.TAKEOVER, ResourceSet.ALL,
                        HANDOVER_TIMEOUT_S);
                case FAILBACK -> new ControlRequest.Handover(ControlRequest.HandoverKind.STANDBY, ResourceSet.FOREIGN,
                        HANDOVER_TIMEOUT_S);
                case CLEANUP -> new ControlRequest.Cleanup(Optional.empty());
                case MAINTENANCE_ON -> new ControlRequest.Maintenance(ControlRequest.MaintenanceAction.ON,
                        Maintenance.Scope.CLUSTER);
                case MAINTENANCE_OFF -> new ControlRequest.Maintenance(ControlRequest.MaintenanceAction.OFF,
                        Maintenance.Scope.CLUSTER);
            };
        }
    }

    /**
     * What {@code a} will do, in words, from the status as it stands: which groups move from which node to which.
     *
     * @param local this node (where the console runs and the request is sent)
     * @param peer  the other node, or empty
     */
    public static List<String> consequences(Action a, String local, String peer, Map<String, Object> status) {
        List<String> out = new ArrayList<>();
        String other = peer.isEmpty() ? "the peer" : peer;
        for (Map<String, Object> g : objects(status, "groups")) {
            String name = str(g, "resources", str(g, "key", "?"));
            String on = str(g, "running_on", "");
            boolean home = str(g, "preferred_node", "").equals(local);
            switch (a) {
                case STANDBY -> {
                    if (on.equals(local)) {
                        out.add(name + " moves from " + local + " to " + other);
                    }
                }
                case TAKEOVER -> {
                    if (!on.equals(local)) {
                        out.add(name + " moves " + (on.isEmpty() ? "" : "from " + on + " ") + "to " + local);
                    }
                }
                case FAILBACK -> {
                    if (on.equals(local) && !home) {
                        out.add(name + " goes back to its home node " + other);
                    }
                }
                default -> { }
            }
        }
        switch (a) {
            case CLEANUP -> out.add("every group's failure record and monitor fail counts are cleared on both nodes;"
                    + " a group kept off a node by its failures may then start there");
            case MAINTENANCE_ON -> out.add("nothing moves: the cluster stops starting, stopping and monitoring resources"
                    + " until maintenance is turned off (they keep running where they are)");
            case MAINTENANCE_OFF -> out.add("the cluster manages resources again: it checks where each runs and may start"
                    + " or stop groups to match");
            default -> {
                if (out.isEmpty()) {
                    out.add("nothing moves: no group is where this action would take it from");
                }
            }
        }
        return out;
    }
}
