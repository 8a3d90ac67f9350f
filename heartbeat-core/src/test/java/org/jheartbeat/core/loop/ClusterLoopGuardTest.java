package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
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
import org.jheartbeat.core.testkit.ManualScheduler;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.wire.MessageType;
import org.jheartbeat.core.wire.WireCodec;
import org.jheartbeat.core.wire.WirePacket;
import org.jheartbeat.core.wire.WireFormatException;
import org.junit.jupiter.api.Test;

/**
 * One real {@link ClusterLoop} on a {@link ManualScheduler} (fake time, keepalive 50 ms, deadtime and
 * initdead 500 ms, no peer) whose group executor, media and log throw: it keeps beating, counts every
 * error, and ends the process (here: calls the exit handler) on an {@link Error}; a flood of frames
 * beyond the loop's bound is dropped and counted while it beats on. Only the beats' presence per
 * deadtime is asserted, never their timing.
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

    /** Records when each heartbeat ({@code t=status}) was handed to it, on {@code clock}. */
    static class RecordingMedium implements Medium {
        final String link;
        final MonotonicClock clock;
        final ConcurrentLinkedQueue<Long> beats = new ConcurrentLinkedQueue<>();
        volatile FrameSink sink;

        RecordingMedium(String link, MonotonicClock clock) {
            this.link = link;
            this.clock = clock;
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
                    beats.add(clock.nanoTime());
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

        BrokenMedium(String link, MonotonicClock clock, java.util.function.Supplier<Throwable> thrown) {
            super(link, clock);
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
        final MonotonicClock clock;
        volatile long firstCallNanos;

        ThrowingGroups(MonotonicClock clock) {
            this.clock = clock;
        }

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
                firstCallNanos = clock.nanoTime();
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

    static ClusterLoop loop(ManualScheduler s, List<Medium> media, GroupExecutor groups) {
        OutboundStamper st = new OutboundStamper(ME, new byte[16], 1, AUTH, () -> "0.00 0.00 0.00 1/1 1");
        return new ClusterLoop(CONFIG, new NodeEngine(CONFIG, ME, st, 3, s.nanoTime()), media, groups, s, s.wall());
    }

    @Test
    void beatsGoOnForThreeDeadtimesWhileTheGroupExecutorAMediumAndTheLogThrow() throws Exception {
        ManualScheduler s = new ManualScheduler();
        BrokenMedium broken = new BrokenMedium("eth0", s, () -> new IllegalStateException("medium broken (test)"));
        RecordingMedium working = new RecordingMedium("eth1", s);
        ThrowingGroups groups = new ThrowingGroups(s);
        AtomicLong logCalls = new AtomicLong();
        ClusterLoop loop = loop(s, List.of(broken, working), groups);
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
            s.runUntilSeconds(() -> groups.calls.get() > 0, 30);
            long from = groups.firstCallNanos;
            long deadtime = TimeUnit.MILLISECONDS.toNanos(DEADTIME_MS);
            s.runUntilSeconds(() -> working.beatsAfter(from + 3 * deadtime) > 0, 30);
            for (int slice = 0; slice < 3; slice++) {
                assertThat(working.beatBetween(from + slice * deadtime, from + (slice + 1) * deadtime))
                        .as("a beat in deadtime slice %d after the group executor first threw", slice).isTrue();
            }
            long before = broken.sends.get() + groups.calls.get() + logCalls.get();
            StatusSnapshot snap = s.join(loop.snapshot());
            long after = broken.sends.get() + groups.calls.get() + logCalls.get();
            // every throw counted, and nothing else went wrong (time stood still: nothing threw meanwhile)
            assertThat(after).isEqualTo(before);
            assertThat(snap.loop().internalErrors()).isEqualTo(before);
            assertThat(snap.loop().internalErrorsByKind()).containsKeys("IllegalStateException sending on eth0",
                    "IllegalStateException executing StartGroup", "IllegalStateException logging");
            assertThat(snap.loop().internalErrorsByKind().keySet()).hasSize(3);
            // a start that threw is a failed start, not one in progress for ever
            assertThat(snap.groups()).extracting(StatusSnapshot.GroupView::localState).contains("failed")
                    .doesNotContain("starting");
            assertThat(broken.sends.get()).isGreaterThanOrEqualTo(working.beats.size());
            assertThat(snap.render()).contains("Internal errors: " + snap.loop().internalErrors() + "\n");
        } finally {
            loop.close();
        }
    }

    record ExitCall(int status, String where, Error error) { }

    @Test
    void anErrorCallsTheExitHandlerWithANonZeroStatus() throws Exception {
        ManualScheduler s = new ManualScheduler();
        BrokenMedium broken = new BrokenMedium("eth1", s, () -> new OutOfMemoryError("Java heap space (test)"));
        CompletableFuture<ExitCall> exit = new CompletableFuture<>();
        ClusterLoop loop = loop(s, List.of(broken), new ThrowingGroups(s));
        loop.onFatalError((status, where, error) -> exit.complete(new ExitCall(status, where, error)));
        try {
            loop.start();
            ExitCall called = s.get(exit, 30);
            assertThat(called.status()).isNotZero().isEqualTo(LoopGuard.FATAL_EXIT_STATUS);
            assertThat(called.where()).isEqualTo("sending on eth1");
            assertThat(called.error()).isInstanceOf(OutOfMemoryError.class).hasMessage("Java heap space (test)");
        } finally {
            loop.close();
        }
    }

    @Test
    void framesBeyondTheBoundAreDroppedAndCountedAndBeatsGoOn() throws Exception {
        ManualScheduler s = new ManualScheduler();
        RecordingMedium medium = new RecordingMedium("eth1", s);
        ConcurrentLinkedQueue<String> logged = new ConcurrentLinkedQueue<>();
        ClusterLoop loop = loop(s, List.of(medium), new ThrowingGroups(s));
        loop.logTo((level, text) -> logged.add(level + " " + text));
        int flood = 3 * InboundFrameLimit.MAX_WAITING;
        try {
            loop.start();
            s.runUntilSeconds(() -> !medium.beats.isEmpty(), 30);
            // the loop runs only when the test lets it: nothing is taken off its queue while the frames arrive
            byte[] garbage = "not a heartbeat frame".getBytes();
            for (int i = 0; i < flood; i++) {
                medium.sink.onFrame("eth1", "198.18.1.9:694", garbage.clone());
            }
            long beatsBefore = medium.beats.size();
            s.runUntilSeconds(() -> medium.beats.size() >= beatsBefore + 5, 30);
            StatusSnapshot snap = s.join(loop.snapshot());
            assertThat(snap.loop().framesDropped()).isEqualTo(flood - InboundFrameLimit.MAX_WAITING);
            // the admitted ones reached the engine, which counted them as bad packets
            assertThat(snap.badPackets()).isEqualTo(InboundFrameLimit.MAX_WAITING);
            assertThat(snap.render()).contains("Frames dropped (loop queue full): "
                    + (flood - InboundFrameLimit.MAX_WAITING));
            s.runUntilSeconds(() -> logged.stream().anyMatch(l -> l.startsWith(
                    "WARN Dropped " + (flood - InboundFrameLimit.MAX_WAITING) + " received frame(s)")), 30);
        } finally {
            loop.close();
        }
    }
}
