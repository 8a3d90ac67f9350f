package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The {@code mcast} medium in the namespace lab ({@code LAB_MEDIA=mcast}: {@code mcast eth1 239.0.0.1
 * 694 1 0} and {@code mcast eth0 239.0.0.2 694 1 0}, no other medium): it carries the beats of both
 * nodes, a failover happens over it, and a real Heartbeat 3.0.6 peer becomes active over it. Bounds
 * only catch hangs; figures are printed.
 */
@Tag("root")
class McastMediaIT {
    @Test
    void mcastAloneCarriesBothNodesBeatsAndAFailover() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_MEDIA", "mcast", "LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3"))) {
            String haCf = Files.readString(lab.runDir().resolve("node1/ha.d/ha.cf"));
            assertThat(haCf).contains("mcast eth1 239.0.0.1 694 1 0").doesNotContain("ucast").doesNotContain("bcast")
                    .doesNotContain("serial");
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            assertThat(FailoverIT.waitFor(lab, "node1", 60_000)).as(lab.daemonLog("node1", 40)).isNotNegative();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                assertThat(lab.lab("status", "node1").output()).contains("node2        active")
                        .contains("link eth1       up").contains("link eth0       up");
                assertThat(lab.lab("status", "node2").output()).contains("node1        active")
                        .contains("link eth1       up").contains("link eth0       up");
            });
            for (String node : new String[] {"node1", "node2"}) {
                assertThat(lab.daemonLog(node, 400)).contains("UDP multicast heartbeat started for group 239.0.0.1 port"
                        + " 694 interface eth1 (ttl=1 loop=0)");
            }

            assertThat(lab.lab("poweroff", "node1").code()).isZero();
            long ms = FailoverIT.waitFor(lab, "node2", 60_000);
            System.out.println("mcast-only failover: node2 served the VIP " + ms + " ms after node1 lost power");
            assertThat(ms).as(lab.daemonLog("node2", 40)).isNotNegative();
            assertThat(lab.holds("node2", FailoverIT.VIP)).isTrue();
        }
    }

    @Test
    void aRealHeartbeatPeerBecomesActiveOverMcast() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_MEDIA", "mcast", "LAB_NODE2", "heartbeat", "LAB_INITDEAD", "10"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            long t0 = System.nanoTime();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                assertThat(lab.lab("clstatus", "node2", "nodestatus", "node1").output().trim()).isEqualTo("active");
                assertThat(lab.lab("status", "node1").output()).contains("node2        active");
            });
            System.out.println("mcast interop: both active " + (System.nanoTime() - t0) / 1_000_000 + " ms after start");
            assertThat(lab.lab("status", "node1").output()).contains("Bad packets: 0");
            String realLog = HeartbeatInteropIT.haLog(lab, "node2");
            assertThat(realLog).contains("UDP multicast heartbeat started for group 239.0.0.1 port 694 interface eth1")
                    .contains("Link node1:eth1 up.").doesNotContain("failed authentication");
        }
    }
}
