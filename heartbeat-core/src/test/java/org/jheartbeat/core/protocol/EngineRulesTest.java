package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.membership.SequenceTracker;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.PeerPresence;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.takeover.TakeoverState;
import org.jheartbeat.core.wire.Field;
import org.junit.jupiter.api.Test;

/** The engine's pure rules on explicit times: the pause resync, the impostor guard, auto_failback, acks. */
class EngineRulesTest {
    static final long MS = 1_000_000L;
    static final NodeName ME = NodeName.of("node1");
    static final NodeName PEER = NodeName.of("node2");
    final List<Effect> out = new ArrayList<>();

    @Test
    void aPauseTheNodeMayHaveBeenDeclaredDeadInHoldsStartsForTwoKeepalivesAndASecond() {
        PauseResync r = new PauseResync(PEER);
        Timing t = Timing.ofMillis(1_000, 5_000, 10_000, 20_000); // may be dead after 10 - 1 - 1 = 8 s
        assertThat(r.paused(7_999, TakeoverState.STABLE, t, 0, out)).isFalse();
        assertThat(r.paused(9_000, TakeoverState.STOPPED, t, 0, out)).as("nothing to resynchronise").isFalse();
        assertThat(out).isEmpty();
        assertThat(r.paused(8_000, TakeoverState.STABLE, t, 0, out)).isTrue();
        assertThat(out).hasSize(1);
        assertThat(r.endNanos()).isEqualTo(3_000 * MS);
        assertThat(r.ends(3_000 * MS - 1)).isFalse();
        assertThat(r.ends(3_000 * MS)).isTrue();
        assertThat(r.endNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(r.ends(4_000 * MS)).isFalse();
    }

    @Test
    void anotherNodeWithOurNameHoldsStartsUntilSilentForDeadtimeAndIsReportedOnce() {
        IdentityGuard g = new IdentityGuard(ME);
        assertThat(g.heard("generation 9, ours is 8", "198.18.0.9:694", "eth0", 0, 10 * MS, out))
                .contains(new TakeoverEvent.IdentityConflict(true));
        assertThat(g.heard("generation 9, ours is 8", "198.18.0.9:694", "eth0", 5 * MS, 10 * MS, out)).isEmpty();
        assertThat(out).hasSize(1).allMatch(e -> ((Effect.LogLine) e).level() == Effect.Level.CRIT);
        assertThat(g.expired(15 * MS - 1, out)).isEmpty();
        assertThat(g.expired(15 * MS, out)).contains(new TakeoverEvent.IdentityConflict(false));
        assertThat(g.expired(16 * MS, out)).isEmpty();
        assertThat(out).hasSize(2);
    }

    @Test
    void autoFailbackIsOwedToAJoinedPeerWaitsWhileInFluxAndEndsWithAnOperatorsChoice() {
        AutoFailback f = new AutoFailback(PEER);
        assertThat(f.peerJoined(PeerPresence.IN_FLUX, PeerPresence.STABLE, true)).as("not joining").isFalse();
        assertThat(f.peerJoined(PeerPresence.JOINING, PeerPresence.JOINING, true)).as("not stable").isFalse();
        assertThat(f.standbyDue(() -> true, true, () -> true)).as("nothing owed").isEmpty();
        f.peerStarting();
        assertThat(f.peerJoined(PeerPresence.JOINING, PeerPresence.STABLE, true)).isTrue();
        assertThat(f.standbyDue(() -> true, true, () -> false)).as("in flux: waits").isEmpty();
        assertThat(f.standbyDue(() -> true, true, () -> true)).isPresent();
        assertThat(f.standbyDue(() -> true, true, () -> true)).as("asked once").isEmpty();
        f.peerStarting();
        f.peerJoined(PeerPresence.JOINING, PeerPresence.STABLE, true);
        f.operatorPlaces();
        assertThat(f.standbyDue(() -> true, true, () -> true)).isEmpty();
        f.peerStarting();
        f.peerJoined(PeerPresence.JOINING, PeerPresence.STABLE, true);
        assertThat(f.standbyDue(() -> false, true, () -> true)).as("nothing of the peer's here").isEmpty();
        assertThat(f.standbyDue(() -> true, true, () -> true)).as("no longer owed").isEmpty();
    }

    @Test
    void framesAreAcknowledgedAtTheTriggerWhenNothingIsMissing() {
        FlowControl flow = new FlowControl(PEER, 3);
        SequenceTracker seq = new SequenceTracker();
        for (long s = 1; s <= 3; s++) {
            seq.offer(1, s);
        }
        assertThat(flow.ackFor(3, seq)).hasValueSatisfying(m ->
                assertThat(m.get(Field.ACK_SEQ)).contains(OutboundStamper.hex(3)));
        seq.offer(1, 4);
        assertThat(flow.ackFor(4, seq)).isEmpty();
    }
}
