package org.jheartbeat.cli.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.junit.jupiter.api.Test;

class TimelineTest {
    static final long T = 1_796_000_000_000L;

    static ClusterEvent ev(long seq, long at, String node, EventKind k, String subject) {
        return ClusterEvent.of(at, node, k, subject, "").numbered(seq);
    }

    /** node2's journal of a failover of node1 (silent 3 s), and node1's own before it lost power. */
    static final List<ClusterEvent> NODE2 = List.of(
            ev(10, T - 60_000, "node2", EventKind.NODE_ALIVE, "node1"),
            ev(11, T, "node2", EventKind.NODE_DEAD, "node1").lasting(3_000),
            ev(12, T + 5, "node2", EventKind.FENCE_ASKED, "node1"),
            ev(13, T + 1_200, "node2", EventKind.FENCE_CONFIRMED, "node1"),
            ev(14, T + 1_250, "node2", EventKind.GROUP_STARTING, "IPaddr::198.18.0.100"),
            ev(15, T + 2_400, "node2", EventKind.GROUP_STARTED, "IPaddr::198.18.0.100"),
            ev(16, T + 2_900, "node2", EventKind.GROUP_STARTED, "labweb"),
            ev(17, T + 60_000, "node2", EventKind.NODE_ALIVE, "node1"),
            ev(18, T + 61_000, "node2", EventKind.GROUP_STARTED, "IPaddr::198.18.0.100"));
    static final List<ClusterEvent> NODE1 = List.of(
            ev(3, T - 59_000, "node1", EventKind.GROUP_STARTED, "IPaddr::198.18.0.100"),
            ev(4, T - 3_000, "node1", EventKind.LINK_DOWN, "node2/eth1"));

    @Test
    void journalsMergeInTimeOrderWithoutDuplicates() {
        List<ClusterEvent> m = Timeline.merge(NODE2, Timeline.merge(NODE1, NODE1));
        assertThat(m).hasSize(NODE1.size() + NODE2.size());
        assertThat(m).isSortedAccordingTo(java.util.Comparator.comparingLong(ClusterEvent::wallMillis));
        assertThat(m.get(1).node()).isEqualTo("node1");
    }

    @Test
    void aFailoverIsDeathThenFencedThenEachGroupStartedWithDurations() {
        List<Timeline.Failover> f = Timeline.failovers(Timeline.merge(NODE1, NODE2));
        assertThat(f).hasSize(1);
        Timeline.Failover one = f.get(0);
        assertThat(one.survivor()).isEqualTo("node2");
        assertThat(one.dead()).isEqualTo("node1");
        assertThat(one.silentFromMillis()).isEqualTo(T - 3_000);
        assertThat(one.steps()).extracting(Timeline.Step::label)
                .containsExactly("fenced node1", "started IPaddr::198.18.0.100", "started labweb");
        assertThat(one.steps()).extracting(Timeline.Step::sinceDeathMillis).containsExactly(1_200L, 2_400L, 2_900L);
        // the start after node1 came back (its failback) is not part of this failover
        assertThat(one.durationMillis()).isEqualTo(2_900);
    }

    @Test
    void aDeathWithNothingAfterItIsAFailoverOfNoSteps() {
        List<Timeline.Failover> f = Timeline.failovers(List.of(ev(1, T, "node2", EventKind.NODE_DEAD, "node1")));
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.steps()).isEmpty();
            assertThat(x.durationMillis()).isZero();
            assertThat(x.silentFromMillis()).isEqualTo(T);
        });
    }
}
