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
 * Serial links on real input: beats over a null-modem cable (a socat PTY pair) and the crossover link at
 * once. Losing one link is never a failover; losing both is (how soon is a printed figure: the
 * deadtime itself is TwoNodeScenarioTest's, on a fake clock).
 */
@Tag("root")
class SerialLinksIT {

    @Test
    void serialOnlyBeatsAndFailsOver() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_MEDIA", "serial"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 40)).isNotNegative();
            String status = lab.lab("status", "node1").output();
            assertThat(status).contains("node2        active").contains("ttyS0");
            assertThat(lab.lab("poweroff", "node1").code()).isZero();
            long ms = FailoverIT.waitFor(lab, "node2", Figures.HANG_MS);
            Figures.print("serial_failover_ms", ms, "ms", "serial only: node2 serves the VIP after node1 lost power");
            assertThat(ms).as(lab.daemonLog("node2", 40)).isNotNegative();
        }
    }

    @Test
    void oneLinkLostIsNeverAFailoverBothLostIs() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_MEDIA", "serial+ucast"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 40)).isNotNegative();
            String tty = lab.runDir().resolve("node2/ttyS0").toString();
            await().atMost(Figures.HANG).untilAsserted(() -> assertThat(lab.lab("status", "node2").output())
                    .contains("link eth1       up").contains(tty + " up"));

            // crossover cable cut: link dead, logged and shown; no failover
            lab.lab("linkdown", "node1", "eth1");
            await().atMost(Figures.HANG).untilAsserted(() -> assertThat(haLog(lab, "node2"))
                    .contains("Link node1:eth1 dead."));
            assertThat(lab.lab("status", "node2").output()).contains("link eth1       dead").contains("node1        active");
            Thread.sleep(4000);
            assertThat(lab.http()).isEqualTo("node1");
            assertThat(haLog(lab, "node2")).doesNotContain("node node1: is dead");
            lab.lab("linkup", "node1", "eth1");
            await().atMost(Figures.HANG).untilAsserted(() -> assertThat(haLog(lab, "node2"))
                    .contains("Link node1:eth1 up."));

            // null-modem cable unplugged: same
            lab.lab("serialcut");
            await().atMost(Figures.HANG).untilAsserted(() -> assertThat(haLog(lab, "node2"))
                    .contains("Link node1:" + tty + " dead."));
            Thread.sleep(4000);
            assertThat(lab.http()).isEqualTo("node1");
            assertThat(haLog(lab, "node2")).doesNotContain("node node1: is dead");
            lab.lab("serialplug");
            await().atMost(Figures.HANG).untilAsserted(() -> assertThat(lab.lab("status", "node2").output())
                    .contains(tty + " up").contains("link eth1       up"));

            // both cut: node1 is dead for node2 (split brain without STONITH)
            lab.lab("serialcut");
            lab.lab("linkdown", "node1", "eth1");
            lab.lab("linkdown", "node1", "eth0");
            long t0 = System.nanoTime();
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(100))
                    .until(() -> lab.holds("node2", FailoverIT.VIP));
            Figures.print("both_links_cut_takeover_ms", (System.nanoTime() - t0) / 1_000_000, "ms",
                    "node2 holds the VIP after the serial and both Ethernet links were cut");
            assertThat(haLog(lab, "node2")).contains("node node1: is dead");
        }
    }

    @Test
    void garbageOnTheSerialLineIsCountedAndHarmless() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_MEDIA", "serial"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 40)).isNotNegative();
            assertThat(lab.lab("serialgarbage", "node1", "102400").code()).isZero();
            await().atMost(Figures.HANG).untilAsserted(() -> assertThat(lab.lab("status", "node1").output())
                    .contains("node2        active").containsPattern("garbage bytes [1-9][0-9]{3,}"));
            Thread.sleep(5000);
            assertThat(haLog(lab, "node1")).doesNotContain("node node2: is dead").doesNotContain("Late heartbeat");
            assertThat(lab.http()).isEqualTo("node1");
            assertThat(lab.lab("status", "node1").output()).contains("node2        active");
        }
    }

    static String haLog(Lab lab, String node) throws Exception {
        return Files.readString(lab.runDir().resolve(node).resolve("ha-log"));
    }
}
