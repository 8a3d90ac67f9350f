package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.media.FrameSink;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.testkit.ManualScheduler;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.core.wire.WirePacket;
import org.junit.jupiter.api.Test;

/**
 * Two real {@link ClusterLoop}s joined by an in-memory link, on one {@link ManualScheduler} (fake time,
 * keepalive 500 ms): an operator hand-over while another of this node is in progress is refused at
 * once (without time moving), and the one in progress goes on and reports its own end (Heartbeat
 * 3.0.6: "Standby in progress- new request from NODE ignored"). Bounds (fake time) only catch hangs.
 */
class ClusterLoopHandoverTest {

    /** One end of an in-memory cable: what it sends arrives at the other end's sink. */
    static final class PipeEnd implements Medium {
        volatile FrameSink sink;
        volatile PipeEnd other;

        @Override
        public String linkName() {
            return "eth1";
        }

        @Override
        public String describe() {
            return "pipe eth1";
        }

        @Override
        public void start(FrameSink s) {
            sink = s;
        }

        @Override
        public void send(WirePacket packet) {
            FrameSink s = other.sink;
            if (s != null) {
                s.onFrame("eth1", "pipe", packet.netstring().clone());
            }
        }

        @Override
        public void close() {
            sink = null;
        }
    }

    /** Groups start at once; a stop waits until the test completes it. */
    static final class HeldStops implements GroupExecutor {
        final ConcurrentHashMap<Integer, CompletableFuture<Boolean>> stops = new ConcurrentHashMap<>();

        @Override
        public CompletableFuture<StartResult> start(int group, org.jheartbeat.core.takeover.GroupOpReason reason) {
            return CompletableFuture.completedFuture(StartResult.STARTED);
        }

        @Override
        public CompletableFuture<Boolean> stop(int group, org.jheartbeat.core.takeover.GroupOpReason reason) {
            return stops.computeIfAbsent(group, g -> new CompletableFuture<>());
        }

        @Override
        public void peerLost(NodeName peer, String how) {
        }

        @Override
        public void close() {
        }
    }

    /** A loop of node {@code me} on {@code scheduler} and its wall clock. */
    static ClusterLoop loop(ClusterConfig config, NodeName me, Medium medium, GroupExecutor groups, long generation,
                            ManualScheduler scheduler) {
        return loop(config, me, medium, groups, generation, scheduler, scheduler.wall());
    }

    static ClusterLoop loop(ClusterConfig config, NodeName me, Medium medium, GroupExecutor groups, long generation,
                            LoopScheduler scheduler, Clock wall) {
        byte[] uuid = new byte[16];
        uuid[15] = (byte) generation;
        OutboundStamper st = new OutboundStamper(me, uuid, generation, new MessageAuthenticator(config.authKeys()),
                () -> "0.00 0.00 0.00 1/1 1");
        return new ClusterLoop(config, new NodeEngine(config, me, st, 3, scheduler.nanoTime()), List.of(medium), groups,
                scheduler, wall);
    }

    static boolean settled(ManualScheduler scheduler, ClusterLoop n) {
        var s = scheduler.join(n.snapshot());
        return s.takeoverState().equals("stable") && s.rscStatus().equals("local");
    }

    @Test
    void aSecondHandoverIsRefusedAtOnceAndTheFirstCompletes() throws Exception {
        ClusterConfig config = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 0).config();
        PipeEnd a = new PipeEnd();
        PipeEnd b = new PipeEnd();
        a.other = b;
        b.other = a;
        HeldStops groups1 = new HeldStops();
        ManualScheduler s = new ManualScheduler();
        ClusterLoop n1 = loop(config, TwoNodeHarness.N1, a, groups1, 1, s);
        ClusterLoop n2 = loop(config, TwoNodeHarness.N2, b, new HeldStops(), 2, s);
        try {
            n1.start();
            n2.start();
            s.runUntilSeconds(() -> settled(s, n1) && settled(s, n2), 60);

            CompletableFuture<ClusterLoop.HandoverResult> first = n1.handover(false, ResourceSet.LOCAL);
            s.runUntilSeconds(() -> groups1.stops.containsKey(0), 30);
            ClusterLoop.HandoverResult second = s.join(n1.handover(false, ResourceSet.ALL));
            ClusterLoop.HandoverResult third = s.join(n1.handover(true, ResourceSet.FOREIGN));
            assertThat(second.outcome()).isEqualTo(TakeoverMachine.Handover.REFUSED);
            assertThat(second.detail()).isEqualTo("standby in progress (standby [local]); new request ignored");
            assertThat(third.outcome()).isEqualTo(TakeoverMachine.Handover.REFUSED);
            assertThat(first).as("the first goes on").isNotDone();
            assertThat(s.join(n1.snapshot()).recentEvents()).anyMatch(l ->
                    l.contains("Standby in progress- new request from node1 ignored [standby all;"));

            groups1.stops.get(0).complete(true);
            ClusterLoop.HandoverResult done = s.get(first, 30);
            assertThat(done.outcome()).as(done.detail()).isEqualTo(TakeoverMachine.Handover.DONE);
            assertThat(done.detail()).isEqualTo("standby [local] completed");
        } finally {
            n1.close();
            n2.close();
        }
    }

    /** {@code hb failback} (standby foreign) on a node that runs none of the peer's groups says so. */
    @Test
    void aStandbyWithNothingToGiveBackSaysSo() throws Exception {
        ClusterConfig config = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 0).config();
        PipeEnd a = new PipeEnd();
        PipeEnd b = new PipeEnd();
        a.other = b;
        b.other = a;
        ManualScheduler s = new ManualScheduler();
        ClusterLoop n1 = loop(config, TwoNodeHarness.N1, a, new HeldStops(), 1, s);
        ClusterLoop n2 = loop(config, TwoNodeHarness.N2, b, new HeldStops(), 2, s);
        try {
            n1.start();
            n2.start();
            s.runUntilSeconds(() -> settled(s, n1) && settled(s, n2), 60);
            ClusterLoop.HandoverResult r = s.get(n1.handover(false, ResourceSet.FOREIGN), 30);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(TakeoverMachine.Handover.DONE);
            assertThat(r.detail()).isEqualTo("standby [foreign]: nothing to give back, node1 ran none of those"
                    + " resource groups; nothing moved");
        } finally {
            n1.close();
            n2.close();
        }
    }
}
