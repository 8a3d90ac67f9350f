package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A Heartbeat-class {@code resource.d} script watched because its token asks for it
 * ({@code labweb::op_monitor_interval=2s::op_restart_limit=1}; Heartbeat never watched one): the lab's
 * real HTTP server killed (by the PID in its pid file) on node1 is restarted there through the script's
 * {@code start} after its {@code status} printed "stopped"; killed again past the limit, the group leaves
 * node1 and node2 serves it. The script gets its own arguments only (no {@code op_} option reaches it).
 * Bounds only catch hangs; the times are printed as figures.
 */
@Tag("root")
class ScriptMonitorIT {
    static final String VIP = "198.18.0.100";
    static final String VIP2 = "198.18.0.101";
    static final String SCRIPT = "labweb::op_monitor_interval=2s::op_restart_limit=1";
    static final long BOUND_MS = 62_000;

    @Test
    void aWatchedScriptIsRestartedInPlaceThenItsGroupMovesPastTheLimit() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        String haresources = "node1 " + VIP + "/24/eth0 " + SCRIPT + "\nnode2 " + VIP2 + "/24/eth0";
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_AUTO_FAILBACK", "off",
                "LAB_HARESOURCES", haresources))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            lab.waitUntil(() -> lab.holds("node1", VIP) && servedBy(lab).equals("node1") && lab.holds("node2", VIP2)
                    && MonitorIT.startedOnNode1(lab), Figures.HANG_MS, "node1 serving labweb on " + VIP
                    + " (its group started), node2 holding " + VIP2);

            // 1. killed once: its status says stopped, it is started again on node1
            String pid1 = pid(lab, "node1");
            long t0 = System.nanoTime();
            assertThat(lab.lab("exec", "node1", "kill", "-9", pid1).code()).isZero();
            lab.waitUntil(() -> status(lab).contains("fail count 1 of 1"), BOUND_MS, "fail count 1 in hb status");
            lab.waitUntil(() -> !pid(lab, "node1").isEmpty() && !pid(lab, "node1").equals(pid1)
                    && servedBy(lab).equals("node1") && lab.holds("node1", VIP) && MonitorIT.restartedInPlace(lab, SCRIPT),
                    BOUND_MS, "labweb restarted on node1");
            Figures.print("script_monitor_restart_ms", ms(t0), "ms", "kill -9 of labweb on node1 until it serves"
                    + " again there");
            assertThat(lab.holds("node2", VIP)).isFalse();
            assertThat(lab.daemonLog("node1", 200)).contains("failed its monitor")
                    .contains("Restarting resource " + SCRIPT + " in place");

            // 2. killed again: the restart limit (1) is used up, the group moves to node2
            String pid2 = pid(lab, "node1");
            t0 = System.nanoTime();
            assertThat(lab.lab("exec", "node1", "kill", "-9", pid2).code()).isZero();
            lab.waitUntil(() -> lab.holds("node2", VIP) && !lab.holds("node1", VIP) && servedBy(lab).equals("node2"),
                    BOUND_MS, "the group moved to node2");
            Figures.print("script_monitor_move_ms", ms(t0), "ms", "second kill on node1 until node2 serves the group");
            assertThat(status(lab)).contains("fail count 2 of 1 within 10 min; last failure");
            // the script ran as Heartbeat runs it: its own arguments (none), then the operation
            assertThat(lab.daemonLog("node2", 400)).contains("resource.d/labweb start")
                    .doesNotContain("labweb op_monitor_interval");

            // node2's own group never moved nor stopped
            assertThat(lab.holds("node2", VIP2)).isTrue();
            assertThat(lab.daemonLog("node2", 2000)).doesNotContain("Stopping resource group " + VIP2);
        }
    }

    private static String status(Lab lab) throws Exception {
        return FailureHandlingIT.hb(lab, "node1", "status").output();
    }

    /** The PID labweb wrote in the node's state directory (empty when it has none). */
    private static String pid(Lab lab, String node) throws Exception {
        Path f = lab.runDir().resolve(node).resolve("state").resolve("labweb.pid");
        return Files.exists(f) ? Files.readString(f).trim() : "";
    }

    /** The node name the lab's client is answered with on the group's address, or "" when nothing answers. */
    private static String servedBy(Lab lab) throws Exception {
        Lab.Result r = lab.lab("http");
        return r.code() == 0 ? r.output().trim() : "";
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
