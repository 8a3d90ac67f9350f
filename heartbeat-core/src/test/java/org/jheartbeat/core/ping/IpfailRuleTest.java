package org.jheartbeat.core.ping;

import static org.assertj.core.api.Assertions.assertThat;

import org.jheartbeat.core.ping.IpfailRule.Verdict;
import org.junit.jupiter.api.Test;

class IpfailRuleTest {
    private static final long S = 1_000_000_000L;
    private final IpfailRule rule = new IpfailRule(2 * S, false);

    @Test
    void fewerThanThePeerGivesUpAllOnceAfterTheSettleDelay() {
        rule.local(1, 0);
        rule.peer(1, 0);
        assertThat(rule.pending()).isEmpty();
        rule.local(0, 10 * S);
        assertThat(rule.pending()).contains(Verdict.GIVE_UP_ALL);
        assertThat(rule.due(11 * S, true)).isEmpty();
        assertThat(rule.nextDeadlineNanos()).isEqualTo(12 * S);
        assertThat(rule.due(12 * S, true)).contains(Verdict.GIVE_UP_ALL);
        assertThat(rule.due(13 * S, true)).as("released once").isEmpty();
    }

    @Test
    void bothLosingTheSamePingNodeWithinTheSettleDelayMovesNothing() {
        rule.local(1, 0);
        rule.peer(1, 0);
        rule.local(0, 10 * S);
        rule.peer(0, 11 * S);
        assertThat(rule.pending()).isEmpty();
        assertThat(rule.due(20 * S, true)).isEmpty();
    }

    @Test
    void moreThanThePeerDoesNothingHere() {
        rule.local(1, 0);
        rule.peer(0, 0);
        assertThat(rule.due(100 * S, true)).isEmpty();
    }

    @Test
    void aDueVerdictWaitsForStability() {
        rule.local(0, 0);
        rule.peer(2, 0);
        assertThat(rule.due(5 * S, false)).isEmpty();
        assertThat(rule.pending()).contains(Verdict.GIVE_UP_ALL);
        assertThat(rule.nextDeadlineNanos()).as("no past deadline to spin on").isEqualTo(Long.MAX_VALUE);
        assertThat(rule.due(6 * S, true)).contains(Verdict.GIVE_UP_ALL);
    }

    @Test
    void everyChangeRestartsTheSettleDelay() {
        rule.local(0, 0);
        rule.peer(1, 0);
        rule.peer(2, 1 * S);
        assertThat(rule.due(2 * S, true)).isEmpty();
        assertThat(rule.due(3 * S, true)).contains(Verdict.GIVE_UP_ALL);
    }

    @Test
    void withoutThePeersCountNothingIsDecided() {
        rule.local(0, 0);
        assertThat(rule.due(100 * S, true)).isEmpty();
        rule.peer(1, 100 * S);
        rule.peerUnknown();
        assertThat(rule.peerCount()).isEmpty();
        assertThat(rule.due(200 * S, true)).isEmpty();
    }

    @Test
    void balancedCountsHandForeignGroupsBackOnlyWithAutoFailback() {
        IpfailRule withFailback = new IpfailRule(2 * S, true);
        withFailback.local(0, 0);
        withFailback.peer(1, 0);
        withFailback.local(1, 5 * S);
        assertThat(withFailback.pending()).contains(Verdict.GIVE_UP_FOREIGN);
        assertThat(withFailback.due(7 * S, true)).contains(Verdict.GIVE_UP_FOREIGN);
        rule.local(1, 0);
        rule.peer(1, 0);
        assertThat(rule.due(10 * S, true)).isEmpty();
    }
}
