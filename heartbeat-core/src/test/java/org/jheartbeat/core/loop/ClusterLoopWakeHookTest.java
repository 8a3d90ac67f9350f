package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.loop.ClusterLoopHandoverTest.PipeEnd;
import org.jheartbeat.core.testkit.ManualScheduler;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterLoop#onWake}: the hook the daemon pets its watchdogs from runs on the loop thread,
 * again and again once the loop runs, not while the start-up work before the first beat runs, and a
 * hook that throws does not stop the timer. One real loop, its peer silent; bounds only catch hangs.
 */
class ClusterLoopWakeHookTest {
    private static ClusterLoop lonelyLoop(LoopScheduler scheduler, Clock wall) {
        ClusterConfig config = ClusterLoopReloadTest.config(ClusterLoopReloadTest.TWO);
        PipeEnd a = new PipeEnd();
        a.other = new PipeEnd(); // never started: what node1 sends goes nowhere
        return ClusterLoopHandoverTest.loop(config, TwoNodeHarness.N1,
                a, new ClusterLoopReloadTest.Recording(config.resourceGroups()), 1, scheduler, wall);
    }

    /*
     * On the production scheduler, in real time, on purpose: the thread the daemon's watchdogs are
     * petted from must be the real loop thread (hb-loop), and the loop thread must be held while the
     * start-up work runs on the caller's thread; a manual scheduler has neither thread.
     */
    @Test
    void theHookRunsRepeatedlyOnTheLoopThreadOnceTheLoopRuns() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        ClusterLoop loop = lonelyLoop(LoopScheduler.thread(), Clock.systemUTC());
        loop.onWake(() -> {
            threads.add(Thread.currentThread().getName());
            calls.incrementAndGet();
        });
        try {
            int[] duringStartup = {-1};
            loop.start(() -> duringStartup[0] = calls.get());
            assertThat(duringStartup[0]).as("calls while the work before the first beat ran").isZero();
            await().atMost(Duration.ofSeconds(60)).until(() -> calls.get() >= 5);
            assertThat(threads).containsExactly("hb-loop");
        } finally {
            loop.close();
        }
    }

    @Test
    void aHookThatThrowsIsCalledAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ManualScheduler s = new ManualScheduler();
        ClusterLoop loop = lonelyLoop(s, s.wall());
        loop.onWake(() -> {
            calls.incrementAndGet();
            throw new IllegalStateException("broken hook");
        });
        try {
            loop.start();
            s.runUntilSeconds(() -> calls.get() >= 3, 60);
            assertThat(s.join(loop.snapshot()).nodes()).extracting(v -> v.name()).contains("node1");
        } finally {
            loop.close();
        }
    }
}
