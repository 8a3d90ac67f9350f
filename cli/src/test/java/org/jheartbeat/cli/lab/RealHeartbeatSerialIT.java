package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Our node1 and a real Heartbeat 3.0.6 node2 (Debian's {@code heartbeat} package, in its own
 * namespaces) joined only by the null-modem cable: each reports the other {@code active}, ours via
 * {@code hb status}, the real one via {@code cl_status nodestatus}; how soon (initdead 10 s is the
 * real Heartbeat's) is a printed figure.
 */
@Tag("root")
class RealHeartbeatSerialIT {

    @Test
    void realHeartbeatAndOursSeeEachOtherActiveOverSerial() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_MEDIA", "serial", "LAB_NODE2", "heartbeat", "LAB_INITDEAD", "10"))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            Lab.Result real = lab.lab("start", "node2");
            assertThat(real.code()).as(real.output()).isZero();
            long t0 = System.nanoTime();
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                assertThat(lab.lab("clstatus", "node2", "nodestatus", "node1").output().trim()).isEqualTo("active");
                assertThat(lab.lab("status", "node1").output()).contains("node2        active");
            });
            Figures.print("interop_serial_both_active_ms", (System.nanoTime() - t0) / 1_000_000, "ms",
                    "real node2 and our node1 each see the other active over serial, initdead 10 s");
            assertThat(lab.lab("status", "node1").output()).contains("node1/ttyS0 up").contains("Bad packets: 0");
            assertThat(lab.lab("clstatus", "node2", "listnodes").output()).contains("node1").contains("node2");
            // and the resource negotiation completes: node1 runs its own group
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 30)).isNotNegative();
        }
    }
}
