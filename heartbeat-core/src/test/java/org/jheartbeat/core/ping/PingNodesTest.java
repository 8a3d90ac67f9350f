package org.jheartbeat.core.ping;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.jheartbeat.core.config.PingNodeDecl;
import org.junit.jupiter.api.Test;

class PingNodesTest {
    private static final long MS = 1_000_000L;
    private final PingNodes nodes = new PingNodes(List.of(
            new PingNodeDecl("198.18.0.254", List.of("198.18.0.254"), false, 1),
            new PingNodeDecl("routers", List.of("198.18.0.1", "198.18.0.2"), true, 2)), Duration.ofMillis(3000), 0);

    @Test
    void nodesStartInInitAndAreNotSettled() {
        assertThat(nodes.statuses()).containsExactly(java.util.Map.entry("198.18.0.254", PingStatus.INIT),
                java.util.Map.entry("routers", PingStatus.INIT));
        assertThat(nodes.settled()).isFalse();
        assertThat(nodes.upCount()).isZero();
        assertThat(nodes.nextDeadlineNanos()).isEqualTo(3000 * MS);
    }

    @Test
    void anAnswerMakesANodePingOnceAndSilenceForDeadpingMakesItDead() {
        assertThat(nodes.answered("198.18.0.254", 100 * MS)).contains(
                new PingNodes.Change("198.18.0.254", PingStatus.INIT, PingStatus.PING));
        assertThat(nodes.answered("198.18.0.254", 600 * MS)).isEmpty();
        assertThat(nodes.evaluate(2999 * MS)).isEmpty();
        assertThat(nodes.evaluate(3000 * MS)).containsExactly(
                new PingNodes.Change("routers", PingStatus.INIT, PingStatus.DEAD));
        assertThat(nodes.settled()).isTrue();
        assertThat(nodes.upCount()).isEqualTo(1);
        assertThat(nodes.nextDeadlineNanos()).isEqualTo(3600 * MS);
        assertThat(nodes.evaluate(3599 * MS)).isEmpty();
        assertThat(nodes.evaluate(3600 * MS)).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(PingStatus.DEAD);
            assertThat(c.logLine()).contains("198.18.0.254").contains("dead");
        });
        assertThat(nodes.upCount()).isZero();
        assertThat(nodes.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(nodes.answered("routers", 5000 * MS)).contains(
                new PingNodes.Change("routers", PingStatus.DEAD, PingStatus.PING));
        assertThat(nodes.upCount()).isEqualTo(1);
    }

    @Test
    void aPauseOfThisProcessIsNobodysSilence() {
        nodes.answered("198.18.0.254", 1000 * MS);
        nodes.paused(2500 * MS); // frozen from 1.5 s to 4 s: the replies of that time were never read
        assertThat(nodes.nextDeadlineNanos()).as("routers: start-up count moved too").isEqualTo(5500 * MS);
        assertThat(nodes.evaluate(5499 * MS)).isEmpty();
        assertThat(nodes.evaluate(5500 * MS)).containsExactly(
                new PingNodes.Change("routers", PingStatus.INIT, PingStatus.DEAD));
        assertThat(nodes.nextDeadlineNanos()).as("answered at 1 s, 2.5 s of pause, deadping 3 s")
                .isEqualTo(6500 * MS);
        assertThat(nodes.evaluate(6499 * MS)).isEmpty();
        assertThat(nodes.evaluate(6500 * MS)).containsExactly(
                new PingNodes.Change("198.18.0.254", PingStatus.PING, PingStatus.DEAD));
        nodes.paused(10_000 * MS);
        assertThat(nodes.statuses()).as("a dead node stays dead").containsOnlyKeys("198.18.0.254", "routers")
                .allSatisfy((k, v) -> assertThat(v).isEqualTo(PingStatus.DEAD));
        assertThat(nodes.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void unknownNamesAreIgnored() {
        assertThat(nodes.answered("198.18.9.9", 0)).isEmpty();
        assertThat(nodes.statuses()).hasSize(2);
    }
}
