package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.loop.ClusterLoopHandoverTest.PipeEnd;
import org.jheartbeat.core.loop.ClusterLoopReloadTest.Recording;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;
import org.jheartbeat.core.testkit.ManualScheduler;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * The loop's events on two real loops joined in memory on one {@link ManualScheduler} (fake time): when node1
 * falls silent, node2 records it dead (with how long it was silent), asks the fence, records the device's
 * confirmation with the time since asked, starts node1's group with the reason and how long the start took, and
 * records the group served when monitoring says so (from another thread, as the group's worker does). Bounds (fake
 * time) only catch hangs.
 */
class ClusterLoopEventsTest {
    static final String WEB = "198.18.0.100/24/eth0";

    static ClusterLoop loop(ClusterConfig config, NodeName me, PipeEnd medium, GroupExecutor groups, Fencer fencer,
                            long generation, ManualScheduler s) {
        byte[] uuid = new byte[16];
        uuid[15] = (byte) generation;
        OutboundStamper st = new OutboundStamper(me, uuid, generation, new MessageAuthenticator(config.authKeys()),
                () -> "0.00 0.00 0.00 1/1 1");
        return new ClusterLoop(config, new NodeEngine(config, me, st, 3, s.nanoTime()), List.of(medium), groups,
                fencer, s, s.wall());
    }

    @Test
    void aFailoverIsRecordedInOrderWithItsDurations() throws Exception {
        ClusterConfig config = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 0, true).config();
        PipeEnd a = new PipeEnd();
        PipeEnd b = new PipeEnd();
        a.other = b;
        b.other = a;
        Recording groups1 = new Recording(config.resourceGroups());
        Recording groups2 = new Recording(config.resourceGroups());
        CompletableFuture<GroupExecutor.StartResult> heldStart = new CompletableFuture<>();
        CompletableFuture<Fencer.Result> heldFence = new CompletableFuture<>();
        ManualScheduler s = new ManualScheduler();
        List<ClusterEvent> events = new CopyOnWriteArrayList<>();
        ClusterLoop n1 = loop(config, TwoNodeHarness.N1, a, groups1, node -> heldFence, 1, s);
        ClusterLoop n2 = loop(config, TwoNodeHarness.N2, b, groups2, node -> heldFence, 2, s);
        n2.recordEventsTo(events::add);
        try {
            n1.start();
            n2.start();
            s.runUntilSeconds(() -> events.stream().anyMatch(e -> e.kind() == EventKind.GROUP_STARTED), 60);
            assertThat(events).extracting(ClusterEvent::kind).contains(EventKind.NODE_ALIVE, EventKind.LINK_UP,
                    EventKind.GROUP_STARTING, EventKind.GROUP_STARTED);
            events.clear();
            groups2.held.put(WEB, heldStart);
            a.other = new PipeEnd(); // node1 falls silent: its beats reach nobody
            s.runUntilSeconds(() -> events.stream().anyMatch(e -> e.kind() == EventKind.FENCE_ASKED), 60);
            s.advanceMillis(3_000);
            heldFence.complete(new Fencer.Result(true, "node1 powered off"));
            s.runUntilSeconds(() -> groups2.ops.contains("start " + WEB + " TAKEOVER"), 60);
            s.advanceMillis(1_500);
            heldStart.complete(GroupExecutor.StartResult.STARTED);
            s.runUntilSeconds(() -> events.stream().anyMatch(e -> e.kind() == EventKind.GROUP_STARTED), 60);
            s.advanceMillis(2_000);
            Thread worker = new Thread(() -> n2.groupServed(WEB, "labweb running", 2_000), "hb-group-0");
            worker.start();
            worker.join(10_000);
            s.runUntilSeconds(() -> events.stream().anyMatch(e -> e.kind() == EventKind.GROUP_SERVED), 60);
        } finally {
            n1.close();
            n2.close();
        }
        List<EventKind> failover = List.of(EventKind.NODE_DEAD, EventKind.FENCE_ASKED, EventKind.FENCE_CONFIRMED,
                EventKind.GROUP_STARTING, EventKind.GROUP_STARTED, EventKind.GROUP_SERVED);
        List<ClusterEvent> got = events.stream().filter(e -> failover.contains(e.kind())).toList();
        assertThat(got).extracting(ClusterEvent::kind).containsExactlyElementsOf(failover);
        assertThat(got).allSatisfy(e -> assertThat(e.node()).isEqualTo("node2"));
        ClusterEvent dead = got.get(0);
        assertThat(dead.subject()).isEqualTo("node1");
        // silent for deadtime, give or take the loop's wake-up granularity
        assertThat(dead.durationMillis()).isBetween(config.timing().deadtime().toMillis(),
                config.timing().deadtime().toMillis() + config.timing().keepalive().toMillis());
        assertThat(dead.cause()).startsWith("no beat for ");
        assertThat(got.get(2).durationMillis()).isGreaterThanOrEqualTo(3_000);
        assertThat(got.get(2).cause()).isEqualTo("node1 powered off");
        assertThat(got.get(3).subject()).isEqualTo(WEB);
        assertThat(got.get(3).cause()).isNotEmpty();
        assertThat(got.get(4).durationMillis()).isGreaterThanOrEqualTo(1_500);
        assertThat(got.get(5)).extracting(ClusterEvent::subject, ClusterEvent::cause, ClusterEvent::durationMillis)
                .containsExactly(WEB, "labweb running", 2_000L);
        assertThat(got.get(5).wallMillis() - got.get(4).wallMillis()).isGreaterThanOrEqualTo(2_000);
        assertThat(events).extracting(ClusterEvent::kind).contains(EventKind.LINK_DOWN);
        for (int i = 1; i < got.size(); i++) {
            assertThat(got.get(i).wallMillis()).isGreaterThanOrEqualTo(got.get(i - 1).wallMillis());
        }
    }
}
