package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Failed starts and stops in the lab, with a real resource script ({@code lab/resource.d/labflaky}) that fails its
 * start or its stop on demand: after each failure a group ends on exactly one node, or visibly on
 * none, never on two, sampled on both nodes throughout; and the operator commands' exit codes tell
 * the truth. The rules: docs/design/takeover.md, "Failures".
 */
@Tag("root")
class FailureHandlingIT {
    static final String VIP1 = "198.18.0.100";
    static final String VIP2 = "198.18.0.101";
    static final String FLAKY = "node1 " + VIP1 + "/24/eth0 labflaky::f1\nnode2 " + VIP2 + "/24/eth0 labflaky::f2";

    /** Samples both nodes every 200 ms: an address or a labflaky resource found on both is recorded. */
    static final class Sampler implements AutoCloseable {
        private final Lab lab;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<String> doubles = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Thread thread;
        private volatile int samples;

        Sampler(Lab lab) {
            this.lab = lab;
            this.thread = new Thread(this::loop, "sampler");
            thread.setDaemon(true);
            thread.start();
        }

        private void loop() {
            while (!stop.get()) {
                try {
                    for (String vip : List.of(VIP1, VIP2)) {
                        if (lab.heldByBoth(vip)) {
                            doubles.add(java.time.LocalTime.now() + " " + vip + " on both nodes");
                        }
                    }
                    for (String r : List.of("f1", "f2")) {
                        // node1, node2, node1 again: a move between two reads is not a double (Lab.heldByBoth)
                        if (Files.exists(running(lab, "node1", r)) && Files.exists(running(lab, "node2", r))
                                && Files.exists(running(lab, "node1", r))) {
                            doubles.add(java.time.LocalTime.now() + " labflaky " + r + " on both nodes");
                        }
                    }
                    samples++;
                    Thread.sleep(200);
                } catch (Exception e) {
                    return;
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(5000);
            // the sampler ran (a few samples: how many depends on how fast the scenario went, which is
            // not this test's to assert; a quick standby on a quiet machine made it 10)
            assertThat(samples).as("samples taken").isGreaterThanOrEqualTo(3);
            assertThat(doubles).as("a group ran on both nodes").isEmpty();
        }
    }

    static Path state(Lab lab, String node) {
        return lab.runDir().resolve(node).resolve("state");
    }

    static Path running(Lab lab, String node, String name) {
        return state(lab, node).resolve(name + ".running");
    }

    static void awaitHeld(Lab lab, String node, String vip, int seconds) {
        String other = node.equals("node1") ? "node2" : "node1";
        await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            assertThat(lab.holds(node, vip)).as(vip + " on " + node + "\n" + lab.daemonLog(node, 30)).isTrue();
            assertThat(lab.holds(other, vip)).as(vip + " not on " + other).isFalse();
        });
    }

    static Lab.Result hb(Lab lab, String node, String... args) throws Exception {
        return OperatorCommandsIT.wrapper(lab, node, "hb", args);
    }

    @Test
    void aStopThatFailsBlocksItsGroupOnItsNodeAndStandbyExitsOne() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_HARESOURCES", FLAKY))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            awaitHeld(lab, "node1", VIP1, 60);
            awaitHeld(lab, "node2", VIP2, 60);
            // an address held is not its group started (labflaky runs after it): a standby is refused until then
            OperatorCommandsIT.awaitSettled(lab, "node1", "node2");
            try (Sampler s = new Sampler(lab)) {
                Files.writeString(state(lab, "node1").resolve("f1.fail-stop"), "");
                Lab.Result standby = hb(lab, "node1", "standby", "local", "--timeout", "120");
                assertThat(standby.code()).as(standby.output()).isEqualTo(1);
                assertThat(standby.output()).contains("resource group " + VIP1 + "/24/eth0 could not be stopped on node1")
                        .contains("labflaky::f1");
                // the group stays whole where it runs: address and service on node1, nothing on node2
                assertThat(lab.holds("node1", VIP1)).isTrue();
                assertThat(Files.exists(running(lab, "node1", "f1"))).isTrue();
                String json1 = OperatorCommandsIT.json(lab, "node1");
                assertThat(json1).contains("\"state_here\":\"blocked\"").contains("hb cleanup");
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                        assertThat(OperatorCommandsIT.json(lab, "node2")).contains("could not be stopped on node1"));
                Thread.sleep(3000);
                assertThat(lab.holds("node2", VIP1)).as("node2 never starts a group blocked on node1").isFalse();
                assertThat(Files.exists(running(lab, "node2", "f1"))).isFalse();
                // node2's own group was never touched
                assertThat(lab.holds("node2", VIP2)).isTrue();
                // the admin repairs the service and clears the block: it is stopped again and moves to node2
                Files.delete(state(lab, "node1").resolve("f1.fail-stop"));
                Lab.Result cleanup = hb(lab, "node1", "cleanup", VIP1 + "/24/eth0");
                assertThat(cleanup.code()).as(cleanup.output()).isZero();
                assertThat(cleanup.output()).startsWith("cleared resource group " + VIP1 + "/24/eth0");
                awaitHeld(lab, "node2", VIP1, 60);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(OperatorCommandsIT.json(lab, "node1")).doesNotContain("\"state_here\":\"blocked\""));
                assertThat(hb(lab, "node1", "cleanup", "nosuchgroup").code()).as("an unknown group is a usage error").isEqualTo(64);
            }
        }
    }

    /**
     * A group of two scripts: the second one's start fails, and the rollback cannot stop the first (its
     * stop keeps failing while it runs). The first still runs on node1, so the group is blocked there
     * and never offered: node2 never starts it (the sampler watches f1 on both nodes throughout). Once
     * the admin repaired both, {@code hb cleanup} stops it once more and node1 runs it.
     */
    @Test
    void aStartWhoseRollbackCannotStopTheFirstScriptBlocksTheGroupAndThePeerNeverStartsIt() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        String group = "labflaky::f1";
        try (Lab lab = new Lab(Map.of("LAB_HARESOURCES", "node1 " + group + " labflaky::f3\nnode2 " + VIP2
                + "/24/eth0 labflaky::f2"))) {
            Files.createDirectories(state(lab, "node1"));
            Files.writeString(state(lab, "node1").resolve("f3.fail-start"), "");
            Files.writeString(state(lab, "node1").resolve("f1.fail-stop"), "");
            try (Sampler s = new Sampler(lab)) {
                lab.lab("start", "node1");
                lab.lab("start", "node2");
                awaitHeld(lab, "node2", VIP2, 60);
                // the rollback's stop of f1: 1 attempt and 10 retries, 1 s apart
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                        assertThat(OperatorCommandsIT.json(lab, "node1")).contains("\"state_here\":\"blocked\""));
                assertThat(HeartbeatInteropIT.haLog(lab, "node1"))
                        .contains("Giving up resources due to failure of labflaky::f3")
                        .contains("Resource STOP failure: labflaky::f1 still running")
                        .contains("Resource group " + group + " failed to start on node1 and could not be stopped again")
                        .contains("Resource STOP failure during rollback: [labflaky::f1]")
                        .doesNotContain("offering it to node2");
                assertThat(Files.exists(running(lab, "node1", "f1"))).as("f1 still runs on node1").isTrue();
                assertThat(Files.exists(running(lab, "node1", "f3"))).isFalse();
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                        assertThat(OperatorCommandsIT.json(lab, "node2")).contains("could not be stopped on node1"));
                Thread.sleep(3000);
                assertThat(Files.exists(running(lab, "node2", "f1"))).as("node2 never starts f1").isFalse();
                Path calls2 = state(lab, "node2").resolve("f1.calls");
                assertThat(Files.exists(calls2) ? Files.readString(calls2) : "").as("node2 never started f1")
                        .doesNotContain("start");
                // the admin repairs both scripts and clears the block: stopped once more, then started on node1
                Files.delete(state(lab, "node1").resolve("f1.fail-stop"));
                Files.delete(state(lab, "node1").resolve("f3.fail-start"));
                Lab.Result cleanup = hb(lab, "node1", "cleanup", group);
                assertThat(cleanup.code()).as(cleanup.output()).isZero();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                    assertThat(Files.exists(running(lab, "node1", "f3"))).isTrue();
                    assertThat(OperatorCommandsIT.json(lab, "node1")).doesNotContain("\"state_here\":\"blocked\"");
                });
                assertThat(Files.exists(running(lab, "node1", "f1"))).isTrue();
                assertThat(Files.exists(running(lab, "node2", "f1"))).isFalse();
            }
        }
    }

    @Test
    void aPeerRestartedWithinDeadtimeHoldsNothingSoOurGroupComesBack() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_HARESOURCES", FLAKY, "LAB_DEADTIME", "15", "LAB_WARNTIME", "5", "LAB_INITDEAD", "30"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            awaitHeld(lab, "node1", VIP1, 60);
            awaitHeld(lab, "node2", VIP2, 60);
            OperatorCommandsIT.awaitSettled(lab, "node1", "node2");
            try (Sampler s = new Sampler(lab)) {
                Lab.Result standby = hb(lab, "node1", "standby", "local");
                assertThat(standby.code()).as(standby.output()).isZero();
                awaitHeld(lab, "node2", VIP1, 30);
                lab.lab("poweroff", "node2");
                Files.deleteIfExists(running(lab, "node2", "f1"));
                Files.deleteIfExists(running(lab, "node2", "f2"));
                lab.lab("poweron", "node2");
                lab.lab("start", "node2");
                // node2 came back within deadtime: node1 was never told it died, yet takes its group back
                awaitHeld(lab, "node1", VIP1, 60);
                awaitHeld(lab, "node2", VIP2, 60);
                assertThat(HeartbeatInteropIT.haLog(lab, "node1")).contains("Heartbeat restart on node node2")
                        .contains("node2 restarted and holds nothing now").doesNotContain("node node2: is dead");
            }
        }
    }

    @Test
    void aStartThatFailsOnThePreferredNodeRunsOnThePeerAndTakeoverSaysItFailed() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_HARESOURCES", FLAKY, "LAB_AUTO_FAILBACK", "off"))) {
            Files.createDirectories(state(lab, "node1"));
            Files.writeString(state(lab, "node1").resolve("f1.fail-start"), "");
            try (Sampler s = new Sampler(lab)) {
                lab.lab("start", "node1");
                lab.lab("start", "node2");
                awaitHeld(lab, "node2", VIP1, 60);
                awaitHeld(lab, "node2", VIP2, 60);
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(Files.exists(running(lab, "node2", "f1"))).isTrue());
                assertThat(OperatorCommandsIT.json(lab, "node1")).contains("\"state_here\":\"failed\"")
                        .contains("failed to start here");
                assertThat(HeartbeatInteropIT.haLog(lab, "node1")).contains("failed to start on node1")
                        .contains("offering it to node2");
                // hb takeover local of a group that failed here is refused until the failure is cleared (asked once
                // node2's start of it returned: while it runs, the refusal would be "node2's resources are in flux")
                OperatorCommandsIT.awaitSettled(lab, "node1", "node2");
                Lab.Result takeover = hb(lab, "node1", "takeover", "local", "--timeout", "60");
                assertThat(takeover.code()).as(takeover.output()).isNotZero();
                assertThat(takeover.output()).contains("failed to start on node1; clear it first with 'hb cleanup");
                Thread.sleep(2000);
                assertThat(lab.holds("node2", VIP1)).isTrue();
                // cleared but not repaired: the takeover runs, the start fails here, hb takeover says so (exit 1)
                // and the group goes back to node2
                assertThat(hb(lab, "node1", "cleanup", "1").code()).isZero();
                Lab.Result failed = hb(lab, "node1", "takeover", "local", "--timeout", "60");
                assertThat(failed.code()).as(failed.output()).isEqualTo(1);
                assertThat(failed.output()).contains("acquired [local] from node2, but")
                        .contains("failed to start on node1");
                awaitHeld(lab, "node2", VIP1, 60);
                // repaired and cleared: the group stays where it runs until asked, then takeover moves it
                Files.delete(state(lab, "node1").resolve("f1.fail-start"));
                Lab.Result cleanup = hb(lab, "node1", "cleanup", "1");
                assertThat(cleanup.code()).as(cleanup.output()).isZero();
                assertThat(OperatorCommandsIT.json(lab, "node1")).doesNotContain("failed to start here");
                OperatorCommandsIT.awaitSettled(lab, "node1", "node2"); // node2's start of the group back returned
                Lab.Result again = hb(lab, "node1", "takeover", "local", "--timeout", "60");
                assertThat(again.code()).as(again.output()).isZero();
                awaitHeld(lab, "node1", VIP1, 60);
            }
        }
    }

    @Test
    void autoFailbackOntoANodeThatCannotStartTheGroupLeavesItOnThePeer() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_HARESOURCES", FLAKY, "LAB_AUTO_FAILBACK", "on"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            awaitHeld(lab, "node1", VIP1, 60);
            awaitHeld(lab, "node2", VIP2, 60);
            try (Sampler s = new Sampler(lab)) {
                lab.lab("poweroff", "node1");
                Files.deleteIfExists(running(lab, "node1", "f1"));
                awaitHeld(lab, "node2", VIP1, 60);
                // node1 comes back unable to start its group: auto-failback moves it there, the start
                // fails, and node2 takes it back
                Files.writeString(state(lab, "node1").resolve("f1.fail-start"), "");
                lab.lab("poweron", "node1");
                lab.lab("start", "node1");
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                        assertThat(HeartbeatInteropIT.haLog(lab, "node1")).contains("failed to start on node1"));
                awaitHeld(lab, "node2", VIP1, 60);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(Files.exists(running(lab, "node2", "f1"))).isTrue());
                assertThat(OperatorCommandsIT.json(lab, "node2")).contains("failed to start on node1");
                Thread.sleep(3000);
                assertThat(lab.holds("node2", VIP1)).as("it stays on node2").isTrue();
            }
        }
    }
}
