package org.jheartbeat.director.userspace.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The ordered expiry of the decision model's entries: what is due comes out, earliest deadline first, equal
 * deadlines in the order they were armed, a re-armed node at its new place, and nothing that is not due.
 */
class ExpiryLanesTest {

    static final class N extends ExpiryLanes.Node {
        final String name;

        N(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<String> pollAll(ExpiryLanes<N> lanes, long now) {
        List<String> out = new ArrayList<>();
        for (N n; (n = lanes.pollDue(now)) != null; ) {
            out.add(n.name);
        }
        return out;
    }

    @Test
    void entriesOfOneTimeoutExpireInTheOrderTheyWereArmedAndARearmedOneAtItsNewPlace() {
        ExpiryLanes<N> lanes = new ExpiryLanes<>(3);
        N a = new N("a");
        N b = new N("b");
        N c = new N("c");
        N d = new N("d");
        lanes.arm(a, 0, 60);
        lanes.arm(b, 0, 60); // the same deadline: after a
        lanes.arm(c, 0, 61);
        lanes.arm(d, 1, 10); // another lane, a shorter timeout
        lanes.arm(a, 0, 63); // traffic on a: now last
        assertThat(lanes.size()).isEqualTo(4);
        assertThat(pollAll(lanes, 9)).isEmpty();
        assertThat(pollAll(lanes, 60)).containsExactly("d", "b");
        assertThat(pollAll(lanes, 62)).containsExactly("c");
        assertThat(lanes.armed(a)).isTrue();
        lanes.remove(a); // dropped (a connection reused its entry), never expires
        assertThat(lanes.armed(a)).isFalse();
        assertThat(pollAll(lanes, 1_000)).isEmpty();
        assertThat(lanes.size()).isZero();
        lanes.remove(a); // not armed: nothing
        assertThat(lanes.size()).isZero();
    }

    @Test
    void aNodeMovesBetweenLanesAsItsStateChanges() {
        ExpiryLanes<N> lanes = new ExpiryLanes<>(2);
        N a = new N("a");
        N b = new N("b");
        lanes.arm(a, 0, 900);
        lanes.arm(b, 0, 900);
        lanes.arm(a, 1, 120); // a closed: TIME_WAIT
        assertThat(pollAll(lanes, 120)).containsExactly("a");
        assertThat(pollAll(lanes, 900)).containsExactly("b");
    }

    @Test
    void deadlinesOutOfOrderInALaneStillComeOutInOrder() {
        // a lane is meant for one timeout (deadlines only grow), but a clock that went back or mixed timeouts
        // must not make an entry outlive its deadline: compare with sorting all the armed nodes
        Random rnd = new Random(31);
        ExpiryLanes<N> lanes = new ExpiryLanes<>(4);
        List<N> armed = new ArrayList<>();
        long seq = 0;
        long now = 0;
        for (int round = 0; round < 200; round++) {
            for (int i = 0; i < 20; i++) {
                N n = armed.isEmpty() || rnd.nextInt(3) > 0 ? new N("n" + seq) : armed.get(rnd.nextInt(armed.size()));
                seq++;
                long at = now + rnd.nextInt(50) - (rnd.nextInt(10) == 0 ? 30 : 0);
                lanes.arm(n, rnd.nextInt(4), at);
                if (!armed.contains(n)) {
                    armed.add(n);
                }
            }
            now += rnd.nextInt(20);
            long t = now;
            List<N> due = armed.stream().filter(n -> t - n.expiresAt >= 0)
                    .sorted(Comparator.comparingLong((N n) -> n.expiresAt)).toList();
            List<String> got = pollAll(lanes, now);
            assertThat(got).as("round %d", round).containsExactlyInAnyOrderElementsOf(
                    due.stream().map(n -> n.name).toList());
            // earliest deadline first
            List<Long> deadlines = new ArrayList<>();
            for (String name : got) {
                deadlines.add(due.stream().filter(n -> n.name.equals(name)).findFirst().orElseThrow().expiresAt);
            }
            assertThat(deadlines).isSorted();
            armed.removeAll(due);
            assertThat(lanes.size()).isEqualTo(armed.size());
        }
    }
}
