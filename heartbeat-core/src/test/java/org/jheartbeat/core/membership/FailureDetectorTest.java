package org.jheartbeat.core.membership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.membership.MembershipEvent.LateHeartbeat;
import org.jheartbeat.core.membership.MembershipEvent.LinkDead;
import org.jheartbeat.core.membership.MembershipEvent.LinkUp;
import org.jheartbeat.core.membership.MembershipEvent.NodeDead;
import org.jheartbeat.core.membership.MembershipEvent.NodeStatusChanged;
import org.jheartbeat.core.testkit.FakeClock;
import org.junit.jupiter.api.Test;

class FailureDetectorTest {
    static final NodeName PEER = NodeName.of("node2");
    // keepalive 1 s, warntime 5 s, deadtime 10 s, initdead 30 s
    static final Timing TIMING = Timing.ofMillis(1000, 5000, 10_000, 30_000);

    final FakeClock clock = new FakeClock();
    final FailureDetector fd = new FailureDetector(TIMING, List.of(PEER), List.of("eth1", "eth0"), clock.nanoTime());

    private List<MembershipEvent> beat(String link, NodeStatus st) {
        List<MembershipEvent> a = new java.util.ArrayList<>(fd.packetReceived(PEER, link, clock.nanoTime()));
        a.addAll(fd.statusReceived(PEER, st, null, clock.nanoTime()));
        return a;
    }

    @Test
    void initdeadAppliesBeforeFirstContact() {
        clock.advanceMillis(29_999);
        assertThat(fd.evaluate(clock.nanoTime())).isEmpty();
        clock.advanceMillis(2);
        assertThat(fd.evaluate(clock.nanoTime())).containsExactly(
                new LinkDead(PEER, "eth1"), new LinkDead(PEER, "eth0"), new NodeDead(PEER, 30_001));
        assertThat(fd.status(PEER)).isEqualTo(NodeStatus.DEAD);
    }

    @Test
    void firstStatusBringsLinkAndNodeUp() {
        assertThat(beat("eth1", NodeStatus.INIT)).containsExactly(new LinkUp(PEER, "eth1"));
        assertThat(fd.status(PEER)).isEqualTo(NodeStatus.INIT);
        clock.advanceMillis(1000);
        assertThat(beat("eth1", NodeStatus.ACTIVE))
                .containsExactly(new NodeStatusChanged(PEER, NodeStatus.INIT, NodeStatus.ACTIVE));
        assertThat(fd.links(PEER)).containsEntry("eth1", LinkStatus.UP).containsEntry("eth0", LinkStatus.INIT);
    }

    @Test
    void deadtimeAfterContactNotInitdead() {
        beat("eth1", NodeStatus.ACTIVE);
        clock.advanceMillis(10_000);
        assertThat(fd.evaluate(clock.nanoTime())).isEmpty();
        clock.advanceMillis(1);
        assertThat(fd.evaluate(clock.nanoTime())).containsExactly(new LinkDead(PEER, "eth1"), new NodeDead(PEER, 10_001));
        assertThat(fd.evaluate(clock.advanceMillis(5000))).as("dead stays dead, reported once").isEmpty();
    }

    @Test
    void peerAdvertisedDeadtimeOverridesOurs() {
        fd.packetReceived(PEER, "eth1", clock.nanoTime());
        fd.statusReceived(PEER, NodeStatus.ACTIVE, Duration.ofMillis(3000), clock.nanoTime());
        clock.advanceMillis(3001);
        assertThat(fd.evaluate(clock.nanoTime())).contains(new NodeDead(PEER, 3001));
    }

    @Test
    void oneDeadLinkNeverKillsTheNode() {
        beat("eth1", NodeStatus.ACTIVE);
        beat("eth0", NodeStatus.ACTIVE);
        for (int i = 0; i < 30; i++) {
            clock.advanceMillis(1000);
            List<MembershipEvent> ev = beat("eth0", NodeStatus.ACTIVE);
            ev.addAll(fd.evaluate(clock.nanoTime()));
            if (i == 10) {
                assertThat(ev).containsExactly(new LinkDead(PEER, "eth1"));
            } else {
                assertThat(ev).isEmpty();
            }
        }
        assertThat(fd.status(PEER)).isEqualTo(NodeStatus.ACTIVE);
        assertThat(fd.links(PEER)).containsEntry("eth1", LinkStatus.DEAD).containsEntry("eth0", LinkStatus.UP);
        assertThat(beat("eth1", NodeStatus.ACTIVE)).containsExactly(new LinkUp(PEER, "eth1"));
    }

    @Test
    void lateHeartbeatAboveWarntime() {
        beat("eth1", NodeStatus.ACTIVE);
        clock.advanceMillis(6000);
        assertThat(beat("eth1", NodeStatus.ACTIVE)).containsExactly(new LateHeartbeat(PEER, 6000, false));
        assertThat(new LateHeartbeat(PEER, 6000, false).logLine()).isEqualTo("Late heartbeat: Node node2: interval 6000 ms");
    }

    @Test
    void deadNodeReturnsOnFreshStatus() {
        beat("eth1", NodeStatus.ACTIVE);
        fd.evaluate(clock.advanceMillis(10_001));
        clock.advanceMillis(1000);
        assertThat(beat("eth1", NodeStatus.INIT)).containsExactly(new LinkUp(PEER, "eth1"),
                new NodeStatusChanged(PEER, NodeStatus.DEAD, NodeStatus.INIT));
    }

    @Test
    void nextDeadlineIsWhenTheNodeWouldDie() {
        beat("eth1", NodeStatus.ACTIVE);
        long t0 = clock.nanoTime();
        assertThat(fd.nextDeadlineNanos()).isLessThanOrEqualTo(t0 + 10_000_000_001L);
        assertThat(fd.nextDeadlineNanos()).isGreaterThan(t0);
    }

    @Test
    void logLinesAreHeartbeats() {
        assertThat(new NodeDead(PEER, 1).logLine()).isEqualTo("node node2: is dead");
        assertThat(new LinkDead(PEER, "eth1").logLine()).isEqualTo("Link node2:eth1 dead.");
        assertThat(new LinkUp(PEER, "eth1").logLine()).isEqualTo("Link node2:eth1 up.");
    }

    /** Calls {@link FailureDetector#awake} every 100 ms, as the loop's ticks do, for {@code ms}. */
    private void runAwake(long ms) {
        for (long t = 0; t < ms; t += 100) {
            assertThat(fd.awake(clock.advanceMillis(100))).isEmpty();
        }
    }

    @Test
    void aPauseOfThisProcessIsNotCountedAsThePeersSilence() {
        fd.awake(clock.nanoTime());
        beat("eth1", NodeStatus.ACTIVE);
        runAwake(1000);
        clock.advanceMillis(12_000); // stopped: longer than the deadtime (10 s)
        assertThat(fd.awake(clock.nanoTime())).containsExactly(new MembershipEvent.Paused(PEER, 12_000));
        assertThat(fd.evaluate(clock.nanoTime())).as("1 s of silence counted, not 13 s").isEmpty();
        assertThat(fd.status(PEER)).isEqualTo(NodeStatus.ACTIVE);
        clock.advanceMillis(9000);
        assertThat(fd.evaluate(clock.nanoTime())).isEmpty();
        clock.advanceMillis(1);
        assertThat(fd.evaluate(clock.nanoTime())).containsExactly(new LinkDead(PEER, "eth1"),
                new NodeDead(PEER, 10_001));
    }

    @Test
    void aBeatThatWaitedDuringThePauseIsNotLate() {
        fd.awake(clock.nanoTime());
        beat("eth1", NodeStatus.ACTIVE);
        runAwake(1000);
        clock.advanceMillis(12_000);
        fd.awake(clock.nanoTime());
        assertThat(beat("eth1", NodeStatus.ACTIVE)).as("1 s since the last beat read, below warntime").isEmpty();
        assertThat(fd.evaluate(clock.nanoTime())).isEmpty();
    }

    @Test
    void gapsUpToHalfASecondAreNotPausesAndDeathComesOnTime() {
        fd.awake(clock.nanoTime());
        beat("eth1", NodeStatus.ACTIVE);
        for (int i = 0; i < 20; i++) {
            assertThat(fd.awake(clock.advanceMillis(FailureDetector.PAUSE_NANOS / 1_000_000))).isEmpty();
        }
        assertThat(fd.evaluate(clock.advanceMillis(1))).containsExactly(new LinkDead(PEER, "eth1"),
                new NodeDead(PEER, 10_001));
    }

    @Test
    void aPauseRevivesNothingAlreadyDead() {
        fd.awake(clock.nanoTime());
        beat("eth1", NodeStatus.ACTIVE);
        clock.advanceMillis(10_001);
        assertThat(fd.evaluate(clock.nanoTime())).contains(new NodeDead(PEER, 10_001));
        clock.advanceMillis(5000);
        assertThat(fd.awake(clock.nanoTime())).isEmpty();
        assertThat(fd.status(PEER)).isEqualTo(NodeStatus.DEAD);
        assertThat(fd.links(PEER)).containsEntry("eth1", LinkStatus.DEAD);
    }

    @Test
    void initdeadDoesNotRunWhileThisProcessIsStopped() {
        fd.awake(clock.nanoTime());
        runAwake(20_000);
        clock.advanceMillis(15_000);
        assertThat(fd.awake(clock.nanoTime())).containsExactly(new MembershipEvent.Paused(PEER, 15_000));
        assertThat(fd.evaluate(clock.advanceMillis(9_999))).isEmpty();
        assertThat(fd.evaluate(clock.advanceMillis(2))).contains(new NodeDead(PEER, 30_001));
    }
}
