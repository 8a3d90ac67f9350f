package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A replugged serial line, on a real line: frames held by a pulled null-modem cable (socat stopped, bytes
 * queued in the PTYs) arrive late when it is plugged back, and a node may restart meanwhile. Frames
 * from before are dropped as Heartbeat drops them, so the replug shows no status flapping
 * ({@code init → up → active} of a peer that never restarted), no death, no takeover. Deadtime and
 * initdead are long enough that the cut itself kills nobody, also on a busy machine.
 */
@Tag("root")
class SerialReplugIT {
    static final Map<String, String> ENV = Map.of("LAB_MEDIA", "serial", "LAB_DEADTIME", "15", "LAB_WARNTIME", "10",
            "LAB_INITDEAD", "30");

    @Test
    void framesHeldByThePulledCableChangeNothing() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(ENV)) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", 60_000)).as(lab.daemonLog("node1", 40)).isNotNegative();
            awaitActive(lab);
            int mark1 = SerialLinksIT.haLog(lab, "node1").length();
            int mark2 = SerialLinksIT.haLog(lab, "node2").length();

            lab.lab("serialcut");
            Thread.sleep(5_000); // both keep writing: their frames queue in the line
            lab.lab("serialplug");
            Thread.sleep(10_000);
            awaitActive(lab);

            String after1 = SerialLinksIT.haLog(lab, "node1").substring(mark1);
            String after2 = SerialLinksIT.haLog(lab, "node2").substring(mark2);
            for (String after : new String[] {after1, after2}) {
                assertThat(after).doesNotContain("Status update for node").doesNotContain(": is dead")
                        .doesNotContain("Heartbeat restart on node").doesNotContain("returning after partition")
                        .doesNotContain("Resources being acquired");
            }
            assertThat(lab.http()).isEqualTo("node1");
        }
    }

    @Test
    void aRestartWhileFramesSitInTheLineIsOneRestartNoTakeover() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(ENV)) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", 60_000)).as(lab.daemonLog("node1", 40)).isNotNegative();
            awaitActive(lab);
            int mark1 = SerialLinksIT.haLog(lab, "node1").length();

            lab.lab("serialcut");
            Thread.sleep(2_000);
            lab.lab("poweroff", "node2"); // its last frames stay in the line
            lab.lab("poweron", "node2");
            lab.lab("start", "node2");
            Thread.sleep(3_000); // the new run writes into the stopped line too
            lab.lab("serialplug");
            awaitActive(lab);
            Thread.sleep(10_000);

            String after = SerialLinksIT.haLog(lab, "node1").substring(mark1);
            System.out.println("node1 after the replug:\n" + after);
            assertThat(after).doesNotContain(": is dead").doesNotContain("returning after partition")
                    .doesNotContain("Resources being acquired").doesNotContain("STONITH");
            assertThat(count(after, "Heartbeat restart on node node2")).as("one restart, seen once").isLessThanOrEqualTo(1);
            assertThat(count(after, "Status update for node node2: status init"))
                    .as("the new run's init is seen at most once: no flapping").isLessThanOrEqualTo(1);
            assertThat(lab.http()).isEqualTo("node1");
        }
    }

    private static void awaitActive(Lab lab) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(lab.lab("status", "node1").output()).contains("node2        active");
            assertThat(lab.lab("status", "node2").output()).contains("node1        active");
        });
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
