package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.LogSettings;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.media.FrameSink;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.WallClock;
import org.jheartbeat.core.wire.MessageType;
import org.jheartbeat.core.wire.WireCodec;
import org.jheartbeat.core.wire.WirePacket;
import org.jheartbeat.core.wire.WireFormatException;
import org.junit.jupiter.api.Test;

/**
 * One real {@link ClusterLoop} (real time, keepalive 50 ms, deadtime and initdead 500 ms, no peer)
 * whose group executor, media and log throw: it keeps beating, counts every error, and ends the
 * process (here: calls the exit handler) on an {@link Error}; a flood of frames beyond the loop's
 * bound is dropped and counted while it beats on. Bounds are generous (ten keepalives per deadtime);
 * only the beats' presence per deadtime is asserted, never their timing.
 */
class ClusterLoopGuardTest {
    static final long KEEPALIVE_MS = 50;
    static final long DEADTIME_MS = 500;
    static final NodeName ME = TwoNodeHarness.N1;
    static final ClusterConfig CONFIG = new ClusterConfig(Path.of("/nonexistent/ha.d"),
            Timing.ofMillis(KEEPALIVE_MS, DEADTIME_MS / 2, DEADTIME_MS, DEADTIME_MS), 694,
            List.of(TwoNodeHarness.N1, TwoNodeHarness.N2), List.of(new MediumDecl.Ucast("eth1", "198.18.1.2", 694, 1)),
            FailbackPolicy.OFF, LogSettings.none(), AuthKeys.single(1, AuthMethod.SHA1, "testsecret".getBytes()),
            TwoNodeHarness.activeActive(), List.of());
    static final MessageAuthenticator AUTH = new MessageAuthenticator(CONFIG.authKeys());

    /** Records when each heartbeat ({@code t=status}) was handed to it, on the test's own clock. */
    static class RecordingMedium implements Medium {
        final String link;
        final ConcurrentLinkedQueue<Long> beats = new ConcurrentLinkedQueue<>();
        volatile FrameSink sink;

        RecordingMedium(String link) {
            this.link = link;
        }

        @Override
        public String linkName() {
            return link;
        }

        @Override
        public String describe() {
            return "recording " + link;
        }

        @Override
        public void start(FrameSink s) {
            sink = s;
        }

        @Override
        public void send(WirePacket packet) {
            try {
                if (WireCodec.decode(packet.netstring(), AUTH).type().equals(Optional.of(MessageType.STATUS.wireName()))) {
                    beats.add(System.nanoTime());
                }
            } catch (WireFormatException e) {
                throw new AssertionError("the loop sent a packet that does not decode", e);
            }
        }

        @Override
        public void close() {
        }

        long beatsAfter(long nanos) {
            return beats.stream().filter(t -> t - nanos >= 0).count();
        }

        boolean beatBetween(long from, long to) {
            return beats.stream().anyMatch(t -> t - from >= 0 && t - to < 0);
        }
    }

    /** A medium whose every send throws {@code thrown}. */
    static final class BrokenMedium extends RecordingMedium {
        final AtomicLong sends = new AtomicLong();
        final java.util.function.Supplier<Throwable> thrown;

        BrokenMedium(String link, java.util.function.Supplier<Throwable> thrown) {
            super(link);
            this.thrown = thrown;
        }

        @Override
        public void send(WirePacket packet) {
            sends.incrementAndGet();
            Throwable t = thrown.get();
            if (t instanceof Error e) {
                throw e;
            }
            throw (RuntimeException) t;
        }
    }

    /** A group executor whose every start and stop throws at once. */
    static final class ThrowingGroups implements GroupExecutor {
        final AtomicLong calls = new AtomicLong();
        volatile long firstCallNanos;

        @Override
        public CompletableFuture<StartResult> start(int group, GroupOpReason reason) {
            return fail();
        }

        @Override
        public CompletableFuture<Boolean> stop(int group, GroupOpReason reason) {
            return fail();
        }

        private <T> CompletableFuture<T> fail() {
            if (calls.incrementAndGet() == 1) {
                firstCallNanos = System.nanoTime();
            }
            throw new IllegalStateException("group executor broken (test)");
        }

        @Override
        public void peerLost(NodeName peer, String how) {
        }

        @Override
        public void close() {
        }
    }

    static ClusterLoop loop(List<Medium> media, GroupExecutor groups) {
        MonotonicClock clock = MonotonicClock.system();
        OutboundStamper st = new OutboundStamper(ME, new byte[16], 1, AUTH, () -> "0.00 0.00 0.00 1/1 1");
        return new ClusterLoop(CONFIG, new NodeEngine(CONFIG, ME, st, 3, clock.nanoTime()), media, groups, clock,
                WallClock.system());
    }

    @Test
    void beatsGoOnForThreeDeadtimesWhileTheGroupExecutorAMediumAndTheLogThrow() throws Exception {
        BrokenMedium broken = new BrokenMedium("eth0", () -> new IllegalStateException("medium broken (test)"));
        RecordingMedium working = new RecordingMedium("eth1");
        ThrowingGroups groups = new ThrowingGroups();
        AtomicLong logCalls = new AtomicLong();
        ClusterLoop loop = loop(List.of(broken, working), groups);
        loop.logTo((level, text) -> {
            logCalls.incrementAndGet();
            throw new IllegalStateException("log broken (test)");
        });
        loop.onFatalError((status, where, error) -> {
            throw new AssertionError("no Error was thrown, yet the exit handler was called: " + where, error);
        });
        try {
            loop.start();
            // with no peer, initdead later the node starts every group: the executor throws
            await().atMost(Duration.ofSeconds(30)).until(() -> groups.calls.get() > 0);
            long from = groups.firstCallNanos;
            long deadtime = TimeUnit.MILLISECONDS.toNanos(DEADTIME_MS);
            await().atMost(Duration.ofSeconds(30)).until(() -> working.beatsAfter(from + 3 * deadtime) > 0);
            for (int slice = 0; slice < 3; slice++) {
                assertThat(working.beatBetween(from + slice * deadtime, from + (slice + 1) * deadtime))
                        .as("a beat in deadtime slice %d after the group executor first threw", slice).isTrue();
            }
            long before = broken.sends.get() + groups.calls.get() + logCalls.get();
            StatusSnapshot s = loop.snapshot().get(10, TimeUnit.SECONDS);
            long after = broken.sends.get() + groups.calls.get() + logCalls.get();
            // every throw counted, and nothing else went wrong
            assertThat(s.loop().internalErrors()).isBetween(before, after);
            assertThat(s.loop().internalErrorsByKind()).containsKeys("IllegalStateException sending on eth0",
                    "IllegalStateException executing StartGroup", "IllegalStateException logging");
            assertThat(s.loop().internalErrorsByKind().keySet()).hasSize(3);
            // a start that threw is a failed start, not one in progress for ever
            assertThat(s.groups()).extracting(StatusSnapshot.GroupView::localState).contains("failed")
                    .doesNotContain("starting");
            assertThat(broken.sends.get()).isGreaterThanOrEqualTo(working.beats.size());
            assertThat(s.render()).contains("Internal errors: " + s.loop().internalErrors() + "\n");
        } finally {
            loop.close();
        }
    }

    record ExitCall(int status, String where, Error error) { }

    @Test
    void anErrorCallsTheExitHandlerWithANonZeroStatus() throws Exception {
        BrokenMedium broken = new BrokenMedium("eth1", () -> new OutOfMemoryError("Java heap space (test)"));
        CompletableFuture<ExitCall> exit = new CompletableFuture<>();
        ClusterLoop loop = loop(List.of(broken), new ThrowingGroups());
        loop.onFatalError((status, where, error) -> exit.complete(new ExitCall(status, where, error)));
        try {
            loop.start();
            ExitCall called = exit.get(30, TimeUnit.SECONDS);
            assertThat(called.status()).isNotZero().isEqualTo(LoopGuard.FATAL_EXIT_STATUS);
            assertThat(called.where()).isEqualTo("sending on eth1");
            assertThat(called.error()).isInstanceOf(OutOfMemoryError.class).hasMessage("Java heap space (test)");
        } finally {
            loop.close();
        }
    }

    /** A medium whose first send holds the loop thread until the test lets it go. */
    static final class HoldingMedium extends RecordingMedium {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        HoldingMedium() {
            super("eth1");
        }

        @Override
        public void send(WirePacket packet) {
            entered.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            super.send(packet);
        }
    }

    @Test
    void framesBeyondTheBoundAreDroppedAndCountedAndBeatsGoOn() throws Exception {
        HoldingMedium medium = new HoldingMedium();
        ConcurrentLinkedQueue<String> logged = new ConcurrentLinkedQueue<>();
        ClusterLoop loop = loop(List.of(medium), new ThrowingGroups());
        loop.logTo((level, text) -> logged.add(level + " " + text));
        int flood = 3 * InboundFrameLimit.MAX_WAITING;
        try {
            loop.start();
            assertThat(medium.entered.await(30, TimeUnit.SECONDS)).isTrue();
            // the loop thread is held: nothing is taken off its queue while the frames arrive
            byte[] garbage = "not a heartbeat frame".getBytes();
            for (int i = 0; i < flood; i++) {
                medium.sink.onFrame("eth1", "198.18.1.9:694", garbage.clone());
            }
            long beatsBefore = medium.beats.size();
            medium.release.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> medium.beats.size() >= beatsBefore + 5);
            StatusSnapshot s = loop.snapshot().get(10, TimeUnit.SECONDS);
            assertThat(s.loop().framesDropped()).isEqualTo(flood - InboundFrameLimit.MAX_WAITING);
            // the admitted ones reached the engine, which counted them as bad packets
            assertThat(s.badPackets()).isEqualTo(InboundFrameLimit.MAX_WAITING);
            assertThat(s.render()).contains("Frames dropped (loop queue full): " + (flood - InboundFrameLimit.MAX_WAITING));
            await().atMost(Duration.ofSeconds(30)).until(() -> logged.stream().anyMatch(l -> l.startsWith(
                    "WARN Dropped " + (flood - InboundFrameLimit.MAX_WAITING) + " received frame(s)")));
        } finally {
            medium.release.countDown();
            loop.close();
        }
    }
}
