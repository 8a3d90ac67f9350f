package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Ping nodes and ipfail in the lab: both nodes ping the router 198.18.0.254 (an
 * address of the lab's switch) over their LAN link, with {@code respawn hacluster
 * /usr/lib/heartbeat/ipfail}. node1's LAN uplink is cut (iptables in its namespace drops eth0; the
 * crossover stays): its ping node dies for it only, so its group moves to node2. Restored, the counts
 * are equal again and, with auto_failback on, the group comes back. Then both uplinks are cut: both
 * lose the ping node and nothing moves.
 */
@Tag("root")
class PingNodesIT {
    static final String VIP = "198.18.0.100";
    static final String VIP2 = "198.18.0.101";
    static final Pattern PING_UP = Pattern.compile("198\\.18\\.0\\.254\\s+ping\\b");
    static final Pattern PING_DEAD = Pattern.compile("198\\.18\\.0\\.254\\s+dead\\b");

    private static String status(Lab lab, String node) throws Exception {
        return lab.lab("status", node).output();
    }

    private static long giveUps(Lab lab, String node) throws Exception {
        var f = lab.runDir().resolve(node).resolve("daemon.out");
        return Files.exists(f) ? Files.readAllLines(f).stream().filter(l -> l.contains("ipfail:")
                && l.contains("giving up")).count() : 0;
    }

    @Test
    void theNodeThatLosesItsUplinkHandsItsGroupOverAndBothLosingItMovesNothing() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_AUTO_FAILBACK", "on",
                "LAB_GROUPS", "active-active", "LAB_PING", "198.18.0.254", "LAB_DEADPING", "4", "LAB_IPFAIL", "1"))) {
            assertThat(Files.readString(lab.configDir("node1").resolve("ha.cf")))
                    .contains("ping 198.18.0.254").contains("respawn hacluster /usr/libexec/heartbeat/ipfail");
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            lab.waitUntil(() -> lab.holds("node1", VIP) && lab.holds("node2", VIP2)
                    && PING_UP.matcher(status(lab, "node1")).find() && PING_UP.matcher(status(lab, "node2")).find(),
                    Figures.HANG_MS, "node1 holds " + VIP + ", node2 " + VIP2 + ", both see the router");
            assertThat(status(lab, "node1")).contains("(ping node)");

            long t0 = System.nanoTime();
            assertThat(lab.lab("uplinkcut", "node1").code()).isZero();
            lab.waitUntil(() -> lab.holds("node2", VIP) && !lab.holds("node1", VIP), Figures.HANG_MS,
                    "node1's group to move to node2 after its uplink was cut");
            Figures.print("ping_uplink_cut_to_moved_ms", (System.nanoTime() - t0) / 1_000_000, "ms",
                    "node1's uplink cut until node2 holds its VIP (deadping 4 s + settle 2 s + stop/start)");
            assertThat(PING_DEAD.matcher(status(lab, "node1")).find()).as(status(lab, "node1")).isTrue();
            assertThat(PING_UP.matcher(status(lab, "node2")).find()).as(status(lab, "node2")).isTrue();
            assertThat(lab.holds("node2", VIP2)).isTrue();
            assertThat(giveUps(lab, "node1")).isEqualTo(1);

            t0 = System.nanoTime();
            assertThat(lab.lab("uplinkrestore", "node1").code()).isZero();
            lab.waitUntil(() -> lab.holds("node1", VIP) && !lab.holds("node2", VIP), Figures.HANG_MS,
                    "node1's group to come back (counts equal again, auto_failback on)");
            Figures.print("ping_restore_to_back_ms", (System.nanoTime() - t0) / 1_000_000, "ms",
                    "node1's uplink restored until it holds its VIP again");

            long giveUps1 = giveUps(lab, "node1");
            long giveUps2 = giveUps(lab, "node2");
            assertThat(lab.lab("uplinkcut", "node1", "node2").code()).isZero();
            lab.waitUntil(() -> PING_DEAD.matcher(status(lab, "node1")).find()
                    && PING_DEAD.matcher(status(lab, "node2")).find(), Figures.HANG_MS,
                    "both nodes to declare the router dead");
            // the settle delay is 2 s here (deadping / 2): give ipfail a few of them to (wrongly) act
            Thread.sleep(6_000);
            assertThat(lab.holds("node1", VIP)).as("both lost the router: nothing moves\n%s",
                    lab.daemonLog("node1", 30)).isTrue();
            assertThat(lab.holds("node2", VIP2)).isTrue();
            assertThat(lab.holds("node2", VIP)).isFalse();
            assertThat(giveUps(lab, "node1")).isEqualTo(giveUps1);
            assertThat(giveUps(lab, "node2")).isEqualTo(giveUps2);
        }
    }

    /**
     * With a real Heartbeat 3.0.6 peer (running its own ipfail): both report the router as a ping
     * node, but the counts are not exchanged (our {@code jhb-ping} is dropped there, its ipfail's API
     * messages are not read here), so cutting our node's uplink moves nothing and our node says why.
     */
    @Test
    void withARealHeartbeatPeerPingNodesAreReportedAndNothingMoves() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(java.nio.file.Path.of("/usr/libexec/heartbeat/heartbeat")),
                "Debian's heartbeat package is not installed");
        try (Lab lab = new Lab(Map.of("LAB_NODE2", "heartbeat", "LAB_GROUPS", "active-active", "LAB_AUTO_FAILBACK",
                "on", "LAB_PING", "198.18.0.254", "LAB_DEADPING", "4", "LAB_IPFAIL", "1"))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            lab.waitUntil(() -> lab.holds("node1", VIP) && lab.holds("node2", VIP2)
                    && PING_UP.matcher(status(lab, "node1")).find()
                    && lab.lab("clstatus", "node2", "nodestatus", "198.18.0.254").output().trim().equals("ping"),
                    Figures.HANG_MS, "node1 holds " + VIP + ", the real node2 " + VIP2 + ", both see the router");
            Lab.Result type = lab.lab("clstatus", "node2", "nodetype", "198.18.0.254");
            Lab.Result list = lab.lab("clstatus", "node2", "listnodes");
            System.out.println("real cl_status nodetype 198.18.0.254: " + type.output().trim()
                    + "; listnodes: " + list.output().trim().replace('\n', ' '));
            assertThat(type.output().trim()).isEqualTo("ping");
            assertThat(list.output()).as("the fact ClStatusTest's listnodes order rests on (ping line first in ha.cf)")
                    .isEqualTo("node2\nnode1\n198.18.0.254\n");

            assertThat(lab.lab("uplinkcut", "node1").code()).isZero();
            lab.waitUntil(() -> PING_DEAD.matcher(status(lab, "node1")).find(), Figures.HANG_MS,
                    "node1 to declare the router dead");
            lab.waitUntil(() -> lab.runDir().resolve("node1").resolve("daemon.out").toFile().exists()
                    && Files.readString(lab.runDir().resolve("node1").resolve("daemon.out"))
                    .contains("reports no ping node count"), Figures.HANG_MS, "node1 to say the peer sends no count");
            Thread.sleep(6_000);
            assertThat(lab.holds("node1", VIP)).as("no count from a real peer: nothing moves\n%s",
                    lab.daemonLog("node1", 30)).isTrue();
            assertThat(lab.holds("node2", VIP2)).isTrue();
            assertThat(giveUps(lab, "node1")).isZero();
        }
    }
}
