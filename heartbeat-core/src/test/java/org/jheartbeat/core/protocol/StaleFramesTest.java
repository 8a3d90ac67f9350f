package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.protocol.StaleFrameCounter.Reason;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Frames from before (an older generation, a sequence number behind the window,
 * our own frames) are dropped silently, as Heartbeat 3.0.6's {@code should_drop_message} drops them:
 * they never refresh a link or a node, never make a peer restart or return, never reach the takeover
 * machine, so never cause a death, a takeover or a fence. Each test records frames, lets the cluster
 * move on, then delivers the old frames as a line that held them would.
 */
class StaleFramesTest {
    /** Both nodes fence (a successful fence powers the target off, so a fence always shows). */
    final TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, true);

    @AfterEach
    void neverBoth() {
        assertThat(h.doubleRun()).as("trace %s", h.trace()).isNull();
    }

    private void bootBoth() {
        h.start(N1);
        h.start(N2);
        h.run(15_000);
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.101");
    }

    /** Records what {@code n} sends for {@code ms} of running. */
    private List<byte[]> record(org.jheartbeat.core.config.NodeName n, long ms) {
        h.capture(n);
        h.run(ms);
        return h.captured(n);
    }

    @Test
    void framesOfThePeersPreviousRunAreDroppedAfterItRestarted() {
        bootBoth();
        List<byte[]> old = record(N2, 3_000);
        h.powerOff(N2);
        h.start(N2); // restarted faster than deadtime: a new generation, no death
        h.run(20_000);
        assertThat(h.engine(N1).detector().status(N2)).isEqualTo(NodeStatus.ACTIVE);
        int logs = h.logs().size();
        List<String> trace = h.trace();
        long fences = h.fenceAttempts();

        h.replay(N1, old);
        h.run(10_000);

        assertNothingHappenedSince(logs, trace, fences);
        assertThat(h.engine(N1).staleFrames().count(Reason.OLD_GENERATION)).isEqualTo(old.size());
        assertThat(h.engine(N1).detector().status(N2)).isEqualTo(NodeStatus.ACTIVE);
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.101");
    }

    @Test
    void oldFramesNeverReviveADeadPeer() {
        bootBoth();
        List<byte[]> old = record(N2, 3_000);
        h.run(1_000); // node2's newest frame is newer than every recorded one
        h.freeze(N2);
        h.run(2_000);
        int logs = h.logs().size();
        // delivered while node2 is silent but not yet declared dead: they must not keep it alive
        h.replay(N1, old);
        h.run(3_000);
        assertThat(h.engine(N1).detector().status(N2)).as("deadtime counts from node2's last real beat")
                .isEqualTo(NodeStatus.DEAD);
        assertThat(h.logs().subList(logs, h.logs().size())).noneMatch(l -> l.contains("Status update")
                || l.contains("Link node2:eth1 up"));
        assertThat(h.fenceAttempts()).as("node2 was fenced once, for its real silence").isEqualTo(1);
        // node2 is powered off by the fence now; the same frames again change nothing
        logs = h.logs().size();
        List<String> trace = h.trace();
        h.replay(N1, old);
        h.run(10_000);
        assertNothingHappenedSince(logs, trace, 1);
        assertThat(h.engine(N1).detector().status(N2)).isEqualTo(NodeStatus.DEAD);
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0", "198.18.0.101");
    }

    @Test
    void aReplayOfThePeersLastFramesKeepsNoLinkUp() {
        bootBoth();
        List<byte[]> last = record(N2, 12_000);
        h.freeze(N2); // the recording ends with node2's newest frame: the one copy that may refresh a link
        assertThat(last).as("the recording holds an unsequenced ack (NS_ackmsg), which has no seq to compare")
                .anyMatch(f -> new String(f, java.nio.charset.StandardCharsets.ISO_8859_1).contains("NS_ackmsg"));
        long repeatedBefore = h.engine(N1).staleFrames().count(Reason.REPEATED_ON_LINK);
        for (int i = 0; i < 10; i++) { // a replayer re-sending what it recorded, every second, past deadtime
            h.replay(N1, last);
            h.run(1_000);
        }
        assertThat(h.engine(N1).detector().status(N2)).isEqualTo(NodeStatus.DEAD);
        assertThat(h.engine(N1).detector().links(N2)).as("node2's links, 10 s after its last real frame")
                .containsEntry("eth1", org.jheartbeat.core.membership.LinkStatus.DEAD);
        assertThat(h.engine(N1).staleFrames().count(Reason.REPEATED_ON_LINK) - repeatedBefore)
                .as("every replayed sequenced frame was counted as one its link had already carried")
                .isEqualTo(10L * last.stream().filter(f -> !new String(f, java.nio.charset.StandardCharsets.ISO_8859_1)
                        .contains("NS_")).count());
    }

    @Test
    void framesFromBeforeAHealedPartitionChangeNothing() {
        TwoNodeHarness p = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200);
        p.start(N1);
        p.start(N2);
        p.run(15_000);
        p.capture(N2);
        p.run(3_000);
        List<byte[]> old = p.captured(N2);
        p.link(false);
        p.run(10_000); // both declare the other dead and run both groups (split brain)
        p.link(true);
        p.run(30_000); // healed: each runs its own group again
        p.forgetDoubleRun();
        assertThat(p.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(p.runningOn(N2)).containsExactly("198.18.0.101");
        int logs = p.logs().size();
        List<String> trace = p.trace();

        p.replay(N1, old);
        p.run(10_000);

        List<String> after = p.logs().subList(logs, p.logs().size());
        assertThat(after).noneMatch(l -> l.contains("is dead") || l.contains("Status update")
                || l.contains("returning") || l.contains("restart") || l.contains("Resources being acquired"));
        assertThat(p.trace().subList(trace.size(), p.trace().size())).allMatch(t -> t.contains("old frames replayed"));
        assertThat(p.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(p.runningOn(N2)).containsExactly("198.18.0.101");
    }

    @Test
    void ourOwnFramesAreCountedAndIgnored() {
        bootBoth();
        List<byte[]> own = record(N1, 2_000);
        int logs = h.logs().size();
        List<String> trace = h.trace();
        h.replay(N1, own);
        h.run(5_000);
        assertNothingHappenedSince(logs, trace, 0);
        assertThat(h.engine(N1).staleFrames().count(Reason.OWN_FRAME)).isEqualTo(own.size());
        assertThat(h.logs().subList(logs, h.logs().size()).stream().filter(l -> l.contains("DEBUG: Dropped frame")))
                .as("debug lines are rate-limited: one per 10 s").hasSizeLessThanOrEqualTo(1);
    }

    @Test
    void framesFarBehindTheWindowAreStale() {
        bootBoth();
        List<byte[]> old = record(N2, 2_000);
        h.run(300_000); // 600 more beats: the recorded ones are more than 500 behind
        int logs = h.logs().size();
        List<String> trace = h.trace();
        h.replay(N1, old);
        h.run(5_000);
        assertNothingHappenedSince(logs, trace, 0);
        assertThat(h.engine(N1).staleFrames().count(Reason.STALE_SEQUENCE)).isEqualTo(old.size());
    }

    /** What the replay must not have caused, judged by the log lines and trace entries since. */
    private void assertNothingHappenedSince(int logsBefore, List<String> traceBefore, long fencesBefore) {
        List<String> after = h.logs().subList(logsBefore, h.logs().size());
        assertThat(after).as("log lines after the replay").noneMatch(l -> l.contains("is dead")
                || l.contains("Status update") || l.contains("restart") || l.contains("returning")
                || l.contains("Link ") || l.contains("Resources being acquired") || l.contains("STONITH")
                || l.contains("Late heartbeat") || l.contains("lost packet"));
        List<String> trace = h.trace();
        assertThat(trace.subList(traceBefore.size(), trace.size())).as("trace after the replay")
                .allMatch(t -> t.contains("old frames replayed"));
        assertThat(h.fenceAttempts()).isEqualTo(fencesBefore);
    }
}
