package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Operators' scripts parse it, so {@code cl_status rscstatus} says what Heartbeat 3.0.6 says. The same sequence
 * (one group, preferred by node1) runs on a pair of real Heartbeat 3.0.6 nodes and on a pair of
 * jheartbeat nodes, and the words both nodes print after each step must be the same: node1 alone,
 * node2 joins, node1 stops and returns, standby and takeover both ways, node2 loses power and comes
 * back. Only words are compared, never timings: each step waits (up to 2 min) until every running
 * node answers, neither says {@code transition}, and the pair's words have not changed for 8 s.
 */
@Tag("root")
class RscStatusIT {
    static final long SETTLE_MS = 8_000;
    static final long STEP_LIMIT_MS = 120_000;

    @ParameterizedTest(name = "auto_failback {0}")
    @ValueSource(strings = {"on", "off"})
    void rscstatusSequenceIsHeartbeats(String failback) throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of("/usr/libexec/heartbeat/heartbeat")), "real heartbeat not installed");
        // each sequence takes 4-5 min (a real pair and ours, 10 steps each 8 s stable): both are
        // drills, ./test.sh -Djhb.drills=true (CI's 25 min; HeartbeatInteropIT runs a real peer in CI)
        assumeTrue(Boolean.getBoolean("jhb.drills"),
                "the rscstatus sequences run with -Djhb.drills=true (README: longer drills)");
        List<String> real = sequence("heartbeat", failback);
        List<String> ours = sequence("jheartbeat", failback);
        System.out.println("rscstatus, auto_failback " + failback + ", node1/node2 after each step:");
        for (int i = 0; i < Math.max(real.size(), ours.size()); i++) {
            System.out.printf("  %-42s %s%n", i < real.size() ? "heartbeat  " + real.get(i) : "",
                    i < ours.size() ? "jheartbeat " + ours.get(i) : "");
        }
        assertThat(ours).isEqualTo(real);
    }

    /** Runs the sequence on a pair of {@code kind} nodes; one {@code step: node1/node2} line per step. */
    private static List<String> sequence(String kind, String failback) throws Exception {
        List<String> seen = new ArrayList<>();
        try (Lab lab = new Lab(Map.of("LAB_NODE1", kind, "LAB_NODE2", kind, "LAB_AUTO_FAILBACK", failback,
                "LAB_GROUPS", "single"))) {
            Pair p = new Pair(lab, kind.equals("heartbeat"));
            lab.lab("start", "node1");
            seen.add(p.settle("node1 alone", true, false));
            lab.lab("start", "node2");
            seen.add(p.settle("node2 joins", true, true));
            lab.lab("stop", "node1");
            seen.add(p.settle("node1 stopped", false, true));
            lab.lab("start", "node1");
            seen.add(p.settle("node1 returns", true, true));
            p.command("node1", "hb_standby", "all");
            seen.add(p.settle("node1 hb_standby all", true, true));
            p.command("node1", "hb_takeover", "all");
            seen.add(p.settle("node1 hb_takeover all", true, true));
            p.command("node2", "hb_takeover", "local");
            seen.add(p.settle("node2 hb_takeover local", true, true));
            p.command("node2", "hb_standby", "foreign");
            seen.add(p.settle("node2 hb_standby foreign", true, true));
            lab.lab("poweroff", "node2");
            seen.add(p.settle("node2 power off", true, false));
            lab.lab("poweron", "node2");
            lab.lab("start", "node2");
            seen.add(p.settle("node2 back", true, true));
        }
        return seen;
    }

    private record Pair(Lab lab, boolean real) {
        /** {@code cl_status rscstatus} on NODE, or empty when its daemon is not running. */
        String rscstatus(String node) throws Exception {
            if (real) {
                Lab.Result r = lab.lab("clstatus", node, "rscstatus");
                return r.code() == 0 ? r.output().trim() : "";
            }
            try {
                ControlResponse r = ControlClient.request(new StateDirectory(lab.runDir().resolve(node)
                        .resolve("state")).controlSocket(), new org.jheartbeat.core.control.ControlRequest.ClStatus(java.util.List.of("rscstatus")));
                String body = r.ok() ? r.body() : "";
                return body.startsWith("0\n") ? body.substring(2).trim() : "";
            } catch (java.io.IOException e) {
                return "";
            }
        }

        String both() throws Exception {
            return rscstatus("node1") + "/" + rscstatus("node2");
        }

        /**
         * Waits until each node that runs ({@code up1}, {@code up2}) answers, neither says
         * {@code transition}, and the words stayed the same for 8 s. A node that runs but does not
         * answer yet (its API not up) is not settled either.
         */
        String settle(String step, boolean up1, boolean up2) throws Exception {
            long t0 = System.nanoTime();
            long since = t0;
            String last = null;
            List<String> history = new ArrayList<>();
            while (true) {
                String now = both();
                long t = System.nanoTime();
                if (!now.equals(last)) {
                    history.add((t - t0) / 1_000_000 + " ms " + now);
                    last = now;
                    since = t;
                }
                String[] w = now.split("/", -1);
                boolean answered = (!up1 || !w[0].isEmpty()) && (!up2 || !w[1].isEmpty());
                if (answered && !now.contains("transition") && t - since >= SETTLE_MS * 1_000_000L) {
                    return step + ": " + now;
                }
                assertThat((t - t0) / 1_000_000).as("%s (%s): rscstatus did not settle: %s", step,
                        real ? "heartbeat" : "jheartbeat", history).isLessThan(STEP_LIMIT_MS);
                Thread.sleep(250);
            }
        }

        /** {@code hb_standby}/{@code hb_takeover ARG} on NODE: Heartbeat's script, or our wrapper. */
        void command(String node, String script, String arg) throws Exception {
            Lab.Result r = real ? lab.lab("hbcmd", node, script, arg) : OperatorCommandsIT.wrapper(lab, node, script, arg);
            assertThat(r.code()).as("%s %s on %s: %s", script, arg, node, r.output()).isZero();
        }
    }
}
