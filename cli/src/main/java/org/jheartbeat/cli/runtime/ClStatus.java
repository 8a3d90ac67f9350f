package org.jheartbeat.cli.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.StatusSnapshot;

/**
 * Heartbeat 3.0.6's {@code cl_status} answered from a status snapshot (facts H): the same
 * subcommands, output forms ({@code -m} for the human sentence) and exit codes: 0 OK, 1 "normal"
 * failure (node or link dead), 11 parameter error. Pure.
 */
public final class ClStatus {
    /** cl_status exit code for a bad command line. */
    public static final int PARAMETER_ERROR = 11;

    private ClStatus() {
    }

    /** What to print and the exit code. */
    public record Answer(int exitCode, String output) { }

    /** Usage text, printed with exit 11 on a bad command line. */
    public static final String USAGE = "usage: cl_status [-m] hbstatus|listnodes|nodestatus NODE|nodetype NODE|"
            + "listhblinks NODE|hblinkstatus NODE LINK|rscstatus|hbparameter -p NAME\n";

    /**
     * @param args the cl_status arguments, e.g. {@code [nodestatus, node2]} or {@code [-m, rscstatus]}
     */
    public static Answer answer(List<String> args, StatusSnapshot s, ClusterConfig config) {
        List<String> a = new ArrayList<>(args);
        boolean human = a.remove("-m");
        boolean verbose = a.remove("-v");
        if (a.isEmpty()) {
            return new Answer(PARAMETER_ERROR, USAGE);
        }
        String cmd = a.get(0);
        switch (cmd) {
            case "hbstatus":
                return new Answer(0, "Heartbeat is running on this machine.\n");
            case "listnodes": {
                // Heartbeat lists its node table (node and ping lines in ha.cf order) backwards
                List<String> table = new ArrayList<>(config.ping().nodeTable());
                if (table.isEmpty()) {
                    config.nodes().forEach(n -> table.add(n.value()));
                    config.ping().nodes().forEach(p -> table.add(p.name()));
                }
                StringBuilder sb = new StringBuilder();
                for (int i = table.size() - 1; i >= 0; i--) {
                    sb.append(table.get(i)).append('\n');
                }
                return new Answer(0, sb.toString());
            }
            case "rscstatus":
                return new Answer(0, human ? "This node is holding " + s.rscStatus() + " resources.\n" : s.rscStatus() + "\n");
            case "hbparameter":
                if (a.size() != 3 || !a.get(1).equals("-p")) {
                    return new Answer(PARAMETER_ERROR, USAGE);
                }
                return parameter(a.get(2), config, human);
            default:
                break;
        }
        if (a.size() < 2) {
            return new Answer(PARAMETER_ERROR, USAGE);
        }
        Optional<StatusSnapshot.NodeView> node = node(s, a.get(1));
        if (node.isEmpty()) {
            return new Answer(1, "Error: node " + a.get(1) + " is not in the cluster\n");
        }
        StatusSnapshot.NodeView n = node.get();
        switch (cmd) {
            case "nodestatus": {
                boolean ok = n.status().equals("active") || n.status().equals("up") || n.status().equals("ping");
                return new Answer(ok ? 0 : 1, human ? "The cluster node " + n.name() + " is " + n.status() + "\n"
                        : n.status() + "\n");
            }
            case "nodetype":
                return new Answer(0, n.type() + "\n");
            case "listhblinks": {
                StringBuilder sb = new StringBuilder(human ? "\tthis node has the following heartbeat links:\n" : "");
                n.links().keySet().stream().sorted().forEach(l -> sb.append('\t').append(l)
                        .append(verbose ? "\t" + n.links().get(l) : "").append('\n'));
                return new Answer(0, sb.toString());
            }
            case "hblinkstatus": {
                if (a.size() != 3) {
                    return new Answer(PARAMETER_ERROR, USAGE);
                }
                String st = n.links().get(a.get(2));
                if (st == null) {
                    return new Answer(1, "Error: node " + n.name() + " has no link " + a.get(2) + "\n");
                }
                String word = st.equals("up") ? "up" : "dead";
                return new Answer(word.equals("up") ? 0 : 1, human ? "The node " + n.name() + "'s heartbeat link "
                        + a.get(2) + " is " + word + "\n" : word + "\n");
            }
            default:
                return new Answer(PARAMETER_ERROR, USAGE);
        }
    }

    private static Answer parameter(String name, ClusterConfig c, boolean human) {
        String v = switch (name) {
            case "keepalive" -> seconds(c.timing().keepalive().toMillis());
            case "deadtime" -> seconds(c.timing().deadtime().toMillis());
            case "warntime" -> seconds(c.timing().warntime().toMillis());
            case "initdead" -> seconds(c.timing().initdead().toMillis());
            case "udpport" -> Integer.toString(c.udpPort());
            case "auto_failback" -> c.autoFailback().configName();
            case "watchdog" -> c.watchdog().map(java.nio.file.Path::toString).orElse(null);
            case "hbversion" -> "3.0.6 (jheartbeat 0.1.0)";
            default -> null;
        };
        if (v == null) {
            return new Answer(1, "Error: heartbeat parameter " + name + " is not recorded\n");
        }
        return new Answer(0, human ? "Heartbeat parameter " + name + "'s value: " + v + "\n" : v + "\n");
    }

    /** Heartbeat records times as written: whole seconds as {@code 5}, otherwise {@code 500ms}. */
    private static String seconds(long ms) {
        return ms % 1000 == 0 ? Long.toString(ms / 1000) : ms + "ms";
    }

    private static Optional<StatusSnapshot.NodeView> node(StatusSnapshot s, String name) {
        Optional<StatusSnapshot.NodeView> ping = s.nodes().stream().filter(v -> v.ping() && v.name().equals(name))
                .findFirst();
        if (ping.isPresent()) {
            return ping; // ping node names are compared as written (host names, addresses)
        }
        String n;
        try {
            n = NodeName.of(name).value();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return s.nodes().stream().filter(v -> !v.ping() && v.name().equals(n)).findFirst();
    }
}
