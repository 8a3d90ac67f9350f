package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.loop.ClusterLoopHandoverTest.PipeEnd;
import org.jheartbeat.core.loop.ClusterLoopReloadTest.Recording;
import org.jheartbeat.core.testkit.ManualScheduler;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * How a failed start travels through the {@link GroupExecutor} port on two real loops joined in memory
 * on one {@link ManualScheduler} (fake time, keepalive 500 ms): a start whose rollback left part of the group running is BLOCKED on
 * its node and never started on the peer; a start that completes exceptionally counts as failed and
 * rolled back, so the peer runs the group. Bounds only catch hangs.
 */
class ClusterLoopStartOutcomeTest {
    static final String WEB = "198.18.0.100/24/eth0";

    private static StatusSnapshot.GroupView web(ManualScheduler s, ClusterLoop n) {
        return s.join(n.snapshot()).groups().stream().filter(g -> g.key().equals(WEB))
                .findFirst().orElseThrow();
    }

    /** Runs both nodes, holds node1's start of its web group, and completes it with {@code outcome}. */
    private static void withHeldStart(java.util.function.Consumer<CompletableFuture<GroupExecutor.StartResult>> outcome,
                                      Check check) throws Exception {
        ClusterConfig config = ClusterLoopReloadTest.config(ClusterLoopReloadTest.TWO);
        PipeEnd a = new PipeEnd();
        PipeEnd b = new PipeEnd();
        a.other = b;
        b.other = a;
        Recording groups1 = new Recording(config.resourceGroups());
        Recording groups2 = new Recording(config.resourceGroups());
        CompletableFuture<GroupExecutor.StartResult> held = new CompletableFuture<>();
        groups1.held.put(WEB, held);
        ManualScheduler s = new ManualScheduler();
        ClusterLoop n1 = ClusterLoopHandoverTest.loop(config, TwoNodeHarness.N1, a, groups1, 1, s);
        ClusterLoop n2 = ClusterLoopHandoverTest.loop(config, TwoNodeHarness.N2, b, groups2, 2, s);
        try {
            n1.start();
            n2.start();
            s.runUntilSeconds(() -> groups1.ops.contains("start " + WEB + " LOCAL_START"), 60);
            outcome.accept(held);
            check.run(s, n1, n2, groups2);
        } finally {
            n1.close();
            n2.close();
        }
    }

    interface Check {
        void run(ManualScheduler s, ClusterLoop n1, ClusterLoop n2, Recording groups2) throws Exception;
    }

    @Test
    void aStartWhoseRollbackLeftPartOfTheGroupRunningIsBlockedHereAndNeverStartedOnThePeer() throws Exception {
        withHeldStart(held -> held.complete(GroupExecutor.StartResult.failed(true, "resource labweb failed to start:"
                + " exit 1; Resource STOP failure during rollback: [IPaddr::" + WEB + "]")), (s, n1, n2, groups2) -> {
            s.runUntilSeconds(() -> web(s, n1).localState().equals("blocked"), 30);
            assertThat(web(s, n1).runningOn()).isEqualTo("node1");
            assertThat(web(s, n1).problem()).contains("Resource STOP failure during rollback: [IPaddr::" + WEB + "]")
                    .contains("hb cleanup " + WEB);
            // node2 learns it is blocked on node1 (jhb-grpfail stop), and so never starts it
            s.runUntilSeconds(() -> web(s, n2).problem().contains("could not be stopped on node1"), 30);
            assertThat(groups2.ops).doesNotContain("start " + WEB + " OFFER_ACCEPT").noneMatch(o -> o.startsWith("start " + WEB));
            assertThat(s.join(n1.snapshot()).recentEvents())
                    .noneMatch(l -> l.contains("offering it to node2"));
        });
    }

    @Test
    void aStartThatCompletesExceptionallyCountsAsRolledBackAndIsOfferedToThePeer() throws Exception {
        withHeldStart(held -> held.completeExceptionally(new IllegalStateException("group executor closed")),
                (s, n1, n2, groups2) -> {
                    s.runUntilSeconds(() -> web(s, n1).localState().equals("failed"), 30);
                    assertThat(web(s, n1).problem()).isEqualTo("failed to start here: group executor closed");
                    s.runUntilSeconds(() -> groups2.ops.contains("start " + WEB + " OFFER_ACCEPT"), 30);
                });
    }
}
