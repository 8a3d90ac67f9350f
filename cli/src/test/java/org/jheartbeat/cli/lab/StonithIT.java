package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * STONITH on real input: each node fences its peer through the peer's (simulated) APC Smart-UPS on
 * its ttyS1, before taking over; the simulator powers the node off in the lab.
 */
@Tag("root")
class StonithIT {

    @Test
    void frozenNodeIsFencedThroughItsUpsThenTakenOverNeverBothHoldTheVip() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_STONITH", "apcsmart"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 40)).isNotNegative();
            // operator tools on a live node ask the daemon, which holds the UPS line (a second opener would break it)
            String cfg = lab.configDir("node1").toString();
            String st = lab.runDir().resolve("node1").resolve("state").toString();
            Lab.Result status = OperatorCommandsIT.hbExactly(lab, "node1", "stonith", "status", "--config-dir", cfg,
                    "--node-name", "node1", "--state-dir", st);
            assertThat(status.code()).as(status.output()).isZero();
            assertThat(status.output()).contains("apcsmart: OK").contains("asked the running daemon");
            Lab.Result check = OperatorCommandsIT.hbExactly(lab, "node1", "config", "check", "--config-dir", cfg,
                    "--node-name", "node1", "--state-dir", st);
            assertThat(check.code()).as(check.output()).isZero();
            assertThat(check.output()).doesNotContain("does not answer");
            List<String> overlaps = Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (sampling.get()) {
                    try {
                        if (lab.holds("node1", FailoverIT.VIP) && lab.holds("node2", FailoverIT.VIP)) {
                            overlaps.add(System.currentTimeMillis() + " both hold the VIP");
                        }
                    } catch (Exception e) {
                        overlaps.add("sampling failed: " + e);
                    }
                }
            });
            sampler.start();
            long daemon1 = Long.parseLong(Files.readString(lab.runDir().resolve("node1/daemon.pid")).trim());
            try {
                lab.lab("freeze", "node1");
                long t0 = System.nanoTime();
                // node2 switches node1's outlet off (Z Z) and takes over once the UPS reports it off (about
                // 2.5 s; a Heartbeat-style reset would wait out the UPS's grace delay, ~25 s)
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200))
                        .until(() -> "node2".equals(lab.http()));
                Figures.print("fenced_takeover_ms", (System.nanoTime() - t0) / 1_000_000, "ms",
                        "node2 serves the VIP after node1 froze: deadtime, the off through the simulated UPS, the takeover");
                String log2 = haLog(lab, "node2");
                assertThat(log2).contains("node node1: is dead").contains("Resetting node node1 with [apcsmart]")
                        .contains("node node1 now reset.");
                assertThat(log2.indexOf("node node1 now reset.")).isLessThan(log2.indexOf("Resources being acquired from node1."));
                lab.lab("thaw", "node1");
                Thread.sleep(1000);
                assertThat(ProcessHandle.of(daemon1).filter(ProcessHandle::isAlive))
                        .as("node1's frozen daemon does not come back after SIGCONT: the UPS powered node1 off").isEmpty();
                assertThat(lab.holds("node1", FailoverIT.VIP)).isFalse();
                assertThat(lab.lab("status", "node2").output()).contains("Fencing: node1 fenced after 1 attempt(s)");
            } finally {
                sampling.set(false);
                sampler.join(10_000);
            }
            assertThat(overlaps).isEmpty();
        }
    }

    @Test
    void unpluggedUpsMeansCritRetriesAndNoTakeoverUntilPluggedBack() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_STONITH", "apcsmart"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 40)).isNotNegative();
            lab.lab("upsstop", "node1");
            lab.lab("freeze", "node1");
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500))
                    .until(() -> countOf(haLog(lab, "node2"), "STONITH of node1 failed.  Retrying...") >= 2);
            assertThat(lab.holds("node2", FailoverIT.VIP)).as("no takeover while the fence fails").isFalse();
            assertThat(haLog(lab, "node2")).contains("CRIT: STONITH of node1 failed.");
            assertThat(lab.lab("status", "node2").output()).contains("Fencing: fencing node1 failed");
            lab.lab("upsstart", "node1");
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200))
                    .until(() -> "node2".equals(lab.http()));
            assertThat(haLog(lab, "node2")).contains("node node1 now reset.");
            lab.lab("thaw", "node1");
        }
    }

    @Test
    void cleanShutdownIsTakenOverWithoutFencing() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_STONITH", "apcsmart"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 40)).isNotNegative();
            lab.lab("stop", "node1");
            assertThat(FailoverIT.waitFor(lab, "node2", Figures.HANG_MS)).isNotNegative();
            Thread.sleep(4000);
            assertThat(haLog(lab, "node2")).doesNotContain("Resetting node").contains("Dead node node1 gave up resources.");
            assertThat(Files.readString(lab.runDir().resolve("ups1.state")).trim()).as("node1's outlet").isEqualTo("on");
        }
    }

    static int countOf(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    static String haLog(Lab lab, String node) throws Exception {
        return Files.readString(lab.runDir().resolve(node).resolve("ha-log"));
    }
}
