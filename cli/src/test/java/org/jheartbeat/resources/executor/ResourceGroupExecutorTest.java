package org.jheartbeat.resources.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jheartbeat.sync.cluster.SyncRuntime;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.loop.GroupExecutor;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.ResourceAgents;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Per-group queues of {@link ResourceGroupExecutor}: one group's operations in order, groups
 * independent, and a hand-over sync cancelled when the peer is lost. Agents are in-memory; blocking
 * is done with latches (bounds only catch hangs).
 */
class ResourceGroupExecutorTest {
    private static final NodeName NODE1 = new NodeName("node1");
    private static final NodeName NODE2 = new NodeName("node2");
    private static final long HANG_GUARD_S = 30;

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final CountDownLatch blockStopOfA = new CountDownLatch(1);
    private final CountDownLatch stopOfAEntered = new CountDownLatch(1);
    private boolean blockA;
    private ResourceGroupExecutor executor;

    /** One in-memory resource; a stop of {@code a} blocks on {@link #blockStopOfA} when {@link #blockA}. */
    private final class Agent implements ResourceAgent {
        private final String token;

        Agent(String token) {
            this.token = token;
        }

        private AgentResult op(String what) {
            int n = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(n, Math::max);
            events.add(what + " " + token);
            try {
                if (blockA && what.equals("stop") && token.equals("a")) {
                    stopOfAEntered.countDown();
                    try {
                        if (!blockStopOfA.await(HANG_GUARD_S, TimeUnit.SECONDS)) {
                            return AgentResult.failed("test latch never released", 1);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return AgentResult.failed("interrupted", 1);
                    }
                }
                return AgentResult.ok(what);
            } finally {
                inFlight.decrementAndGet();
            }
        }

        @Override
        public AgentResult start() {
            return op("start");
        }

        @Override
        public AgentResult stop() {
            return op("stop");
        }

        @Override
        public AgentResult status() {
            return AgentResult.stopped("not running");
        }
    }

    private static ResourceGroupDecl group(String token, int line) {
        return new ResourceGroupDecl(NODE1, List.of(new ResourceSpec(token, List.of(), token)), line);
    }

    private ResourceGroupExecutor executor(ResourceGroupExecutor.Lifecycle lifecycle) {
        ResourceAgents agents = spec -> new Agent(spec.token());
        executor = new ResourceGroupExecutor(List.of(group("a", 1), group("b", 2)), agents, lifecycle);
        return executor;
    }

    @AfterEach
    void close() {
        blockStopOfA.countDown();
        if (executor != null) {
            executor.close();
        }
    }

    @Test
    void operationsOfOneGroupRunOneAtATimeInSubmissionOrder() throws Exception {
        executor(ResourceGroupExecutor.Lifecycle.NONE);
        List<CompletableFuture<?>> ops = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            boolean start = i % 2 == 1;
            ops.add(start ? executor.start(0, GroupOpReason.TAKEOVER) : executor.stop(0, GroupOpReason.STANDBY_RELEASE));
            expected.add(start ? "start a" : "stop a");
        }
        CompletableFuture.allOf(ops.toArray(CompletableFuture[]::new)).get(HANG_GUARD_S, TimeUnit.SECONDS);
        for (int i = 0; i < ops.size(); i++) {
            assertThat(ops.get(i).join()).isEqualTo(i % 2 == 1 ? GroupExecutor.StartResult.STARTED : Boolean.TRUE);
        }
        assertThat(events).containsExactlyElementsOf(expected);
        assertThat(maxInFlight.get()).isEqualTo(1);
    }

    @Test
    void aStartOfOneGroupDoesNotWaitForAnotherGroupsStop() throws Exception {
        blockA = true;
        executor(ResourceGroupExecutor.Lifecycle.NONE);
        CompletableFuture<Boolean> stopA = executor.stop(0, GroupOpReason.STANDBY_RELEASE);
        assertThat(stopOfAEntered.await(HANG_GUARD_S, TimeUnit.SECONDS)).isTrue();
        // with one worker for every group (the old executor) this start queues behind the blocked stop
        assertThat(executor.start(1, GroupOpReason.TAKEOVER).get(HANG_GUARD_S, TimeUnit.SECONDS))
                .isEqualTo(GroupExecutor.StartResult.STARTED);
        assertThat(stopA).isNotDone();
        assertThat(events).containsExactly("stop a", "start b");
        blockStopOfA.countDown();
        assertThat(stopA.get(HANG_GUARD_S, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theReasonReachesTheLifecycleHooks() throws Exception {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        executor(new ResourceGroupExecutor.Lifecycle() {
            @Override
            public void beforeStart(ResourceGroupDecl group, GroupOpReason reason) {
                seen.add("before start " + group.key() + " " + reason);
            }

            @Override
            public void afterStop(ResourceGroupDecl group, GroupOpReason reason) {
                seen.add("after stop " + group.key() + " " + reason);
            }
        });
        executor.start(1, GroupOpReason.STANDBY_ACQUIRE).get(HANG_GUARD_S, TimeUnit.SECONDS);
        executor.stop(1, GroupOpReason.PARTITION_RELEASE).get(HANG_GUARD_S, TimeUnit.SECONDS);
        assertThat(seen).containsExactly("before start b STANDBY_ACQUIRE", "after stop b PARTITION_RELEASE");
    }

    /**
     * A hand-over sync throttled to 1 KiB/s by rsync's own {@code --bwlimit} would run for minutes;
     * the peer's death kills it, the stop completes, and the group starts again here at once.
     */
    @Test
    void thePeersDeathCancelsAHandOverSyncInFlight(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        byte[] data = new byte[1_000_000];
        new java.util.Random(7).nextBytes(data);
        Files.write(src.resolve("data"), data);
        ReplicationJobSpec job = new ReplicationJobSpec("web", "a", List.of(src), Optional.of(dir.resolve("dst")),
                "0 0 1 1 *", true, List.of("--bwlimit=1"), false, 1.0, 0, Duration.ofSeconds(1),
                Duration.ofHours(1), 1);
        SyncConfig cfg = new SyncConfig(null, Files.createDirectories(dir.resolve("state")), SyncConfig.DEFAULT_SSH,
                Map.of(), List.of(job), List.of());
        StatusSnapshot peerUp = new StatusSnapshot("node1", 1, "standby_giving", "transition",
                List.of(new StatusSnapshot.NodeView("node1", "active", true, Map.of()),
                        new StatusSnapshot.NodeView("node2", "active", false, Map.of())),
                List.of(), 0, Map.of(), Map.of(), "none", "same", List.of());
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger syncLog = (Logger) LoggerFactory.getLogger("sync");
        ch.qos.logback.classic.Level levelBefore = syncLog.getLevel(); // another test may have set one
        syncLog.setLevel(ch.qos.logback.classic.Level.INFO);
        syncLog.addAppender(log);
        try (SyncRuntime sync = new SyncRuntime(cfg, "node1", () -> Optional.of(peerUp), Clock.systemUTC())) {
            executor(sync);
            CompletableFuture<Boolean> stop = executor.stop(0, GroupOpReason.STANDBY_RELEASE);
            await().atMost(Duration.ofSeconds(HANG_GUARD_S)).until(() -> !rsyncChildren().isEmpty());
            assertThat(stop).isNotDone();

            executor.peerLost(NODE2, "died");

            assertThat(stop.get(HANG_GUARD_S, TimeUnit.SECONDS)).isTrue();
            await().atMost(Duration.ofSeconds(HANG_GUARD_S)).until(() -> rsyncChildren().isEmpty());
            assertThat(executor.start(0, GroupOpReason.TAKEOVER).get(HANG_GUARD_S, TimeUnit.SECONDS))
                .isEqualTo(GroupExecutor.StartResult.STARTED);
            assertThat(events).containsExactly("stop a", "start a");
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .contains("hand-over sync of group a cancelled: peer node2 died");
            assertThat(sync.replication().status()).singleElement()
                    .satisfies(s -> assertThat(s.message()).contains("interrupted"));
        } finally {
            syncLog.detachAppender(log);
            syncLog.setLevel(levelBefore);
        }
    }

    @Test
    void aStopThatIsNoHandOverDoesNotSync(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("data"), "x");
        ReplicationJobSpec job = new ReplicationJobSpec("web", "a", List.of(src), Optional.of(dir.resolve("dst")),
                "0 0 1 1 *", true, List.of(), false, 1.0, 0, Duration.ofSeconds(1), Duration.ofHours(1), 1);
        SyncConfig cfg = new SyncConfig(null, Files.createDirectories(dir.resolve("state")), SyncConfig.DEFAULT_SSH,
                Map.of(), List.of(job), List.of());
        // the status string says standby_giving: the reason, not the string, decides
        StatusSnapshot s = new StatusSnapshot("node1", 1, "standby_giving", "transition",
                List.of(new StatusSnapshot.NodeView("node1", "active", true, Map.of()),
                        new StatusSnapshot.NodeView("node2", "active", false, Map.of())),
                List.of(), 0, Map.of(), Map.of(), "none", "same", List.of());
        try (SyncRuntime sync = new SyncRuntime(cfg, "node1", () -> Optional.of(s), Clock.systemUTC())) {
            executor(sync);
            assertThat(executor.stop(0, GroupOpReason.PARTITION_RELEASE).get(HANG_GUARD_S, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.exists(dir.resolve("dst"))).isFalse();
            assertThat(executor.stop(0, GroupOpReason.STANDBY_RELEASE).get(HANG_GUARD_S, TimeUnit.SECONDS)).isTrue();
            assertThat(dir.resolve("dst")).isDirectory();
        }
    }

    private static List<ProcessHandle> rsyncChildren() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("rsync")).orElse(false)).toList();
    }

}
