package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Resource monitoring end to end, on Debian's lighttpd as {@code lsb:lighttpd} (each node has its own
 * /run: LAB_PRIVATE_RUN=1) behind {@code ocf:heartbeat:IPaddr2}, watched every 2 s with one restart
 * allowed: the service process killed (by the PID in its pid file) on node1 is restarted there and
 * serves again; killed again past the limit, the group leaves node1 and node2 serves it; {@code hb
 * status} (text and JSON) shows the fail count and the failure; {@code hb resources cleanup} clears
 * them. node2's own group (a Heartbeat-class address) stays on node2 throughout, never stopped. Bounds
 * only catch hangs (interval + 60 s); the times are printed as figures.
 */
@Tag("root")
class MonitorIT {
    static final String VIP = "198.18.0.100";
    static final String VIP2 = "198.18.0.101";
    static final String LSB = "lsb:lighttpd::op_monitor_interval=2s::op_restart_limit=1";
    static final long BOUND_MS = 62_000;

    @Test
    void killedServiceIsRestartedInPlaceThenItsGroupMovesPastTheLimit() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of("/usr/lib/ocf/resource.d/heartbeat/IPaddr2"))
                && Files.isExecutable(Path.of("/etc/init.d/lighttpd")), "scripts/setup.sh installs resource-agents and lighttpd");
        String haresources = "node1 ocf:heartbeat:IPaddr2::ip=" + VIP + "::cidr_netmask=24::nic=eth0 " + LSB + "\n"
                + "node2 " + VIP2 + "/24/eth0";
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_AUTO_FAILBACK", "off",
                "LAB_PRIVATE_RUN", "1", "LAB_HARESOURCES", haresources))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            lab.waitUntil(() -> lab.holds("node1", VIP) && servedByLighttpd(lab) && lab.holds("node2", VIP2)
                    && startedOnNode1(lab), Figures.HANG_MS, "node1 serving lighttpd on " + VIP + " (its group"
                    + " started), node2 holding " + VIP2);

            // 1. killed once: restarted in place on node1
            String pid1 = pid(lab, "node1");
            long t0 = System.nanoTime();
            assertThat(lab.lab("exec", "node1", "kill", "-9", pid1).code()).isZero();
            lab.waitUntil(() -> status(lab).contains("fail count 1 of 1"), BOUND_MS, "fail count 1 in hb status");
            lab.waitUntil(() -> running(lab, "node1") && !pid(lab, "node1").equals(pid1) && servedByLighttpd(lab)
                    && lab.holds("node1", VIP) && restartedInPlace(lab, LSB), BOUND_MS, "lighttpd restarted on node1");
            Figures.print("monitor_restart_ms", ms(t0), "ms", "kill -9 of lighttpd on node1 until it serves again there");
            assertThat(lab.holds("node2", VIP)).isFalse();
            assertThat(lab.daemonLog("node1", 200)).contains("failed its monitor")
                    .contains("Restarting resource " + LSB + " in place");

            // 2. killed again: the restart limit (1) is used up, the group moves to node2
            String pid2 = pid(lab, "node1");
            t0 = System.nanoTime();
            assertThat(lab.lab("exec", "node1", "kill", "-9", pid2).code()).isZero();
            lab.waitUntil(() -> lab.holds("node2", VIP) && !lab.holds("node1", VIP) && servedByLighttpd(lab)
                    && running(lab, "node2") && !running(lab, "node1"), BOUND_MS, "the group moved to node2");
            Figures.print("monitor_move_ms", ms(t0), "ms", "second kill on node1 until node2 serves the group");
            String text = status(lab);
            System.out.println("hb status on node1 after the move:\n" + text);
            assertThat(text).contains(LSB + " (group ocf:heartbeat:IPaddr2::ip=" + VIP)
                    .contains("fail count 2 of 1 within 10 min; last failure").contains("failed while running here");
            Lab.Result json = FailureHandlingIT.hb(lab, "node1", "status", "--json");
            assertThat(json.output()).contains("\"resource\":\"" + LSB + "\"").contains("\"fail_count\":2");
            assertThat(lab.daemonLog("node1", 300)).contains("no restart left")
                    .contains("failed while running on node1");
            // the journal: the restart in place, then the failure that moved the group
            assertThat(LabJournal.events(lab, "node1").stream().filter(e -> e.kind()
                    == org.jheartbeat.core.journal.EventKind.MONITOR_FAILED).map(e -> e.cause()).toList())
                    .satisfiesExactly(c -> assertThat(c).contains("restarted in place"),
                            c -> assertThat(c).contains("restart limit 1 within 10 min used up"));

            // 3. cleanup clears the fail count and the failure
            Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
            String state = lab.runDir().resolve("node1").resolve("state").toString();
            Lab.Result cleanup = lab.lab("exec", "node1", "env", "HB_STATE_DIR=" + state,
                    "HB_JAR=" + System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()),
                    root.resolve("packaging/src/bin/hb").toString(), "resources", "cleanup", "--state-dir", state, "1");
            assertThat(cleanup.code()).as(cleanup.output()).isZero();
            String after = status(lab);
            assertThat(after).contains("fail count 0 of 1").doesNotContain("last failure")
                    .doesNotContain("failed while running here");

            // node2's own group never moved nor stopped
            assertThat(lab.holds("node2", VIP2)).isTrue();
            assertThat(lab.holds("node1", VIP2)).isFalse();
            assertThat(lab.daemonLog("node2", 2000)).doesNotContain("Stopping resource group " + VIP2);
        }
    }

    private static String status(Lab lab) throws Exception {
        return FailureHandlingIT.hb(lab, "node1", "status").output();
    }

    /**
     * Whether node1's daemon reports the group node1 prefers as started there ({@code "state_here":"running"}:
     * its start returned). A service that answers already may still be inside its start script's wait for it,
     * and a kill then is a failed start (the group leaves at once), not the monitor failure these tests are about.
     */
    static boolean startedOnNode1(Lab lab) throws Exception {
        return OperatorCommandsIT.json(lab, "node1").contains("\"preferred_node\":\"node1\",\"state_here\":\"running\"");
    }

    /** Whether node1's daemon logged that {@code resource}'s restart in place returned (the same race as above). */
    static boolean restartedInPlace(Lab lab, String resource) {
        return lab.daemonLog("node1", 400).contains("Resource " + resource + " restarted in place");
    }

    /** The PID lighttpd wrote in its pid file in the node's own /run. */
    private static String pid(Lab lab, String node) throws Exception {
        Lab.Result r = lab.lab("exec", node, "cat", "/run/lighttpd.pid");
        return r.code() == 0 ? r.output().trim() : "";
    }

    private static boolean running(Lab lab, String node) throws Exception {
        return lab.lab("exec", node, "/etc/init.d/lighttpd", "status").code() == 0;
    }

    private static boolean servedByLighttpd(Lab lab) throws Exception {
        Lab.Result r = lab.lab("client", "curl", "-s", "-m", "2", "-o", "/dev/null", "-D", "-", "http://" + VIP + "/");
        return r.code() == 0 && r.output().startsWith("HTTP/1.1 ") && r.output().contains("Server: lighttpd/");
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
