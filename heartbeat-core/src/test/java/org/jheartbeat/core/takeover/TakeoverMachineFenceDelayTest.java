package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.junit.jupiter.api.Test;

/**
 * The fencing race of a cut of every link (the fault matrix's "both links cut, STONITH, active-active";
 * docs/design/stonith.md, "Fence delay"): the node that holds fewer groups, or with as many the one
 * listed later in ha.cf, waits {@code fence_delay} before its first FencePeer; the other fences at once.
 * A peer heard again during the wait is not fenced at all. Fake clock: times are the nanos fed.
 */
class TakeoverMachineFenceDelayTest {
    static final NodeName N1 = TakeoverTableTest.N1;
    static final NodeName N2 = TakeoverTableTest.N2;
    static final long T0 = TakeoverTableTest.T0;
    static final long DELAY = 5_000_000_000L;
    /** When the peer is declared dead in every test. */
    static final long DEATH = 60_000_000_000L;

    /** g1 (node1's), g2 and g3 (node2's): node2 holds two groups, node1 one. */
    static final List<ResourceGroupDecl> TWO_FOR_NODE2 = List.of(
            new ResourceGroupDecl(N1, List.of(new ResourceSpec("g1", List.of(), "g1")), 1),
            new ResourceGroupDecl(N2, List.of(new ResourceSpec("g2", List.of(), "g2")), 2),
            new ResourceGroupDecl(N2, List.of(new ResourceSpec("g3", List.of(), "g3")), 3));

    /**
     * A STABLE machine for {@code me} with fencing, running its own groups, its peer holding its own
     * ({@code rsc_hold} local). ha.cf lists node1 first, as the lab's.
     */
    static TakeoverMachine stable(NodeName me, List<ResourceGroupDecl> groups, long delay) {
        NodeName peer = me.equals(N1) ? N2 : N1;
        TakeoverMachine m = new TakeoverMachine(me, peer, groups, FailbackPolicy.ON,
                TakeoverSettings.DEFAULTS.withFencing(true).withPeerFirstInHaCf(me.equals(N2)).withFenceDelayNanos(delay));
        m.on(new TakeoverEvent.CommUp(), T0);
        for (Effect e : m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), T0)) {
            if (e instanceof Effect.StartGroup s) {
                m.on(new TakeoverEvent.GroupStarted(s.group(), true), T0);
            }
        }
        m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), T0);
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
        return m;
    }

    static boolean fences(List<Effect> out) {
        return out.stream().anyMatch(e -> e instanceof Effect.FencePeer);
    }

    static List<Integer> starts(List<Effect> out) {
        List<Integer> s = new ArrayList<>();
        out.stream().filter(e -> e instanceof Effect.StartGroup).forEach(e -> s.add(((Effect.StartGroup) e).group()));
        return s;
    }

    static String log(List<Effect> out) {
        StringBuilder sb = new StringBuilder();
        out.stream().filter(e -> e instanceof Effect.LogLine).forEach(e -> sb.append(((Effect.LogLine) e).level())
                .append(' ').append(((Effect.LogLine) e).text()).append('\n'));
        return sb.toString();
    }

    @Test
    void withEqualWeightsTheNodeLaterInHaCfWaitsAndTheFirstFencesAtOnce() {
        TakeoverMachine first = stable(N1, TakeoverTableTest.GROUPS, DELAY);
        List<Effect> out1 = first.on(new TakeoverEvent.PeerDead(), DEATH);
        assertThat(out1).contains(new Effect.FencePeer(N2));
        assertThat(log(out1)).contains("Resetting node node2 with STONITH before taking over its resources.");

        TakeoverMachine later = stable(N2, TakeoverTableTest.GROUPS, DELAY);
        List<Effect> out2 = later.on(new TakeoverEvent.PeerDead(), DEATH);
        assertThat(fences(out2)).isFalse();
        assertThat(log(out2)).contains("INFO Delaying STONITH of node1 by 5 s: it holds 1 resource group(s), we hold 1,"
                + " and it comes first in ha.cf (jheartbeat.yaml stonith.fence_delay); the node that holds more fences"
                + " first.");
        assertThat(later.state()).isEqualTo(TakeoverState.FENCING);
        assertThat(later.fenceDelayed()).isTrue();
        assertThat(later.fenceStatus()).startsWith("fence of node1 delayed for 5 s");
        assertThat(later.nextDeadlineNanos()).isEqualTo(DEATH + DELAY);
        assertThat(fences(later.on(new TakeoverEvent.Tick(), DEATH + DELAY - 1))).isFalse();
    }

    @Test
    void aHeavierPeerMakesUsWaitEvenWhenWeComeFirstAndALighterOneIsFencedAtOnce() {
        TakeoverMachine n1 = stable(N1, TWO_FOR_NODE2, DELAY);
        List<Effect> out1 = n1.on(new TakeoverEvent.PeerDead(), DEATH);
        assertThat(fences(out1)).isFalse();
        assertThat(log(out1)).contains("Delaying STONITH of node2 by 5 s: it holds 2 resource group(s), we hold 1"
                + " (jheartbeat.yaml stonith.fence_delay)");

        TakeoverMachine n2 = stable(N2, TWO_FOR_NODE2, DELAY);
        assertThat(n2.on(new TakeoverEvent.PeerDead(), DEATH)).contains(new Effect.FencePeer(N1));
    }

    /**
     * Active/passive: node1 runs the only group, node2 none. node1 does not fence an idle node2 (it gave up
     * resources), so there is no race and node2, lighter, fences at once: the delay would only slow the
     * failover.
     */
    @Test
    void anIdleNodeFencesTheActiveOneAtOnceForThereIsNoRace() {
        List<ResourceGroupDecl> onlyNode1s = List.of(
                new ResourceGroupDecl(N1, List.of(new ResourceSpec("g1", List.of(), "g1")), 1));
        TakeoverMachine idle = stable(N2, onlyNode1s, DELAY);
        List<Effect> out = idle.on(new TakeoverEvent.PeerDead(), DEATH);
        assertThat(out).contains(new Effect.FencePeer(N1));
        assertThat(log(out)).doesNotContain("Delaying");

        TakeoverMachine active = stable(N1, onlyNode1s, DELAY);
        List<Effect> out1 = active.on(new TakeoverEvent.PeerDead(), DEATH);
        assertThat(fences(out1)).isFalse();
        assertThat(log(out1)).contains("Dead node node2 gave up resources.");
    }

    @Test
    void aZeroDelayFencesAtOnceOnBothNodesAsBefore() {
        for (NodeName me : List.of(N1, N2)) {
            TakeoverMachine m = stable(me, TakeoverTableTest.GROUPS, 0);
            List<Effect> out = m.on(new TakeoverEvent.PeerDead(), DEATH);
            assertThat(fences(out)).as(me.value()).isTrue();
            assertThat(log(out)).doesNotContain("Delaying");
            assertThat(m.fenceStatus()).startsWith("fencing node");
        }
    }

    @Test
    void aPeerHeardAgainDuringTheWaitIsNeverFencedAndNothingIsTakenOver() {
        TakeoverMachine m = stable(N2, TakeoverTableTest.GROUPS, DELAY);
        List<Effect> all = new ArrayList<>(m.on(new TakeoverEvent.PeerDead(), DEATH));
        all.addAll(m.on(new TakeoverEvent.Tick(), DEATH + 2_000_000_000L));
        List<Effect> back = m.on(new TakeoverEvent.PeerReturned(), DEATH + 2_500_000_000L);
        all.addAll(back);
        assertThat(log(back)).contains("CRIT Cluster node node1 returning after partition; its fence is cancelled (it"
                + " was delayed and not yet started).");
        assertThat(back).anyMatch(e -> e instanceof Effect.Announce a && a.message() instanceof Announcement.Resources);
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
        assertThat(m.peerPresence()).isEqualTo(PeerPresence.STABLE);
        assertThat(m.fenceDelayed()).isFalse();
        assertThat(m.fenceStatus()).contains("cancelled");
        assertThat(m.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        for (long t = DEATH + 3_000_000_000L; t <= DEATH + 30_000_000_000L; t += 1_000_000_000L) {
            all.addAll(m.on(new TakeoverEvent.Tick(), t));
        }
        assertThat(fences(all)).isFalse();
        assertThat(starts(all)).isEmpty();
        assertThat(m.groupState(0)).isEqualTo(GroupState.STOPPED);
        assertThat(m.groupState(1)).isEqualTo(GroupState.RUNNING);
        assertThat(m.takeovers()).isZero();
    }

    /**
     * node1 goes standby (in flux, giving its group), is frozen before its {@code done} and declared dead; heard
     * again during the delay, it is as it was: in flux, for it never noticed the partition and so never reports
     * stable. It may take its group back (our claim says we do not hold it), and that report may be lost: at
     * its next death it is fenced, not taken for a node that gave up resources.
     */
    @Test
    void aPeerInFluxHeardAgainDuringTheWaitStaysInFluxAndIsFencedAtItsNextDeath() {
        TakeoverMachine m = stable(N2, TakeoverTableTest.GROUPS, DELAY);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, false, "standby"), DEATH - 2_000_000_000L);
        m.on(new TakeoverEvent.PeerGroupStates(java.util.Map.of("g1", GroupState.STOPPING, "g2", GroupState.STOPPED)),
                DEATH - 2_000_000_000L);
        assertThat(fences(m.on(new TakeoverEvent.PeerDead(), DEATH))).isFalse(); // delayed: 1 group each
        m.on(new TakeoverEvent.PeerGroupStates(java.util.Map.of("g1", GroupState.STOPPED, "g2", GroupState.STOPPED)),
                DEATH + 2_000_000_000L);
        m.on(new TakeoverEvent.PeerReturned(), DEATH + 2_000_000_000L);
        assertThat(m.peerPresence()).isEqualTo(PeerPresence.IN_FLUX);
        List<Effect> again = m.on(new TakeoverEvent.PeerDead(), DEATH + 7_000_000_000L);
        assertThat(log(again)).doesNotContain("gave up resources");
        assertThat(starts(again)).isEmpty();
    }

    /**
     * node1's group failed here; node2 restarted (node1 wants its own group back, but it failed here) and
     * took it as an offer; after {@code hb cleanup} node1 wants it again but holds off while node2 reports it
     * running. node2 is declared dead: until the fence is confirmed the group may still run there, so it is
     * not started here before.
     */
    @Test
    void aGroupThePeerReportedRunningIsNotStartedBeforeItsFenceIsConfirmed() {
        TakeoverMachine m = stable(N1, TakeoverTableTest.GROUPS, 0);
        m.on(new TakeoverEvent.GroupFailedRunning(0, "monitor"), T0 + 1_000_000_000L);
        m.on(new TakeoverEvent.GroupStopped(0, true, ""), T0 + 2_000_000_000L);
        m.on(new TakeoverEvent.PeerRestarted(), T0 + 2_500_000_000L);
        m.on(new TakeoverEvent.PeerGroupStates(java.util.Map.of("g1", GroupState.RUNNING, "g2", GroupState.RUNNING)),
                T0 + 3_000_000_000L);
        List<Effect> cleanup = m.on(new TakeoverEvent.CleanupRequested(-1), T0 + 4_000_000_000L);
        assertThat(starts(cleanup)).isEmpty();
        List<Effect> dead = m.on(new TakeoverEvent.PeerDead(), DEATH);
        assertThat(dead).contains(new Effect.FencePeer(N2));
        assertThat(starts(dead)).as("g1 may still run on node2").isEmpty();
        assertThat(starts(m.on(new TakeoverEvent.FenceOutcome(true, "OK"), DEATH + 1_000_000_000L)))
                .containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void aPeerLostAndHeardAgainDuringTheNegotiationResumesIt() {
        TakeoverMachine m = new TakeoverMachine(N2, N1, TakeoverTableTest.GROUPS, FailbackPolicy.ON,
                TakeoverSettings.DEFAULTS.withFencing(true).withPeerFirstInHaCf(true).withFenceDelayNanos(DELAY));
        m.on(new TakeoverEvent.CommUp(), T0);
        assertThat(m.state()).isEqualTo(TakeoverState.NEGOTIATING);
        List<Effect> dead = m.on(new TakeoverEvent.PeerDead(), T0 + 1_000_000_000L);
        assertThat(log(dead)).contains("Delaying STONITH of node1 by 5 s: it holds 0 resource group(s), we hold 0,"
                + " and it comes first in ha.cf");
        m.on(new TakeoverEvent.PeerReturned(), T0 + 2_000_000_000L);
        assertThat(m.state()).isEqualTo(TakeoverState.NEGOTIATING);
        List<Effect> late = m.on(new TakeoverEvent.Tick(), T0 + 2_000_000_000L + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS);
        assertThat(fences(late)).isFalse();
        // alive and silent: it may run our group, so our starting is sent again rather than the group taken
        assertThat(starts(late)).isEmpty();
        assertThat(late).contains(new Effect.Announce(new Announcement.Starting()));
        List<Effect> answer = m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""),
                T0 + 3_000_000_000L + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS);
        assertThat(starts(answer)).containsExactly(1);
    }

    @Test
    void aPeerHeardAgainOnceTheFenceWasSentIsFencedAnyway() {
        TakeoverMachine m = stable(N2, TakeoverTableTest.GROUPS, DELAY);
        m.on(new TakeoverEvent.PeerDead(), DEATH);
        List<Effect> end = m.on(new TakeoverEvent.Tick(), DEATH + DELAY);
        assertThat(end).contains(new Effect.FencePeer(N1));
        List<Effect> back = m.on(new TakeoverEvent.PeerReturned(), DEATH + DELAY + 100_000_000L);
        assertThat(log(back)).contains("is heard again while being fenced; fencing goes on");
        assertThat(m.state()).isEqualTo(TakeoverState.FENCING);
        assertThat(starts(m.on(new TakeoverEvent.FenceOutcome(true, "OK"), DEATH + DELAY + 3_000_000_000L)))
                .containsExactly(0);
    }

    @Test
    void aRealDeathOfTheWinnerIsFencedExactlyTheDelayLaterThenTakenOver() {
        TakeoverMachine m = stable(N2, TakeoverTableTest.GROUPS, DELAY);
        m.on(new TakeoverEvent.PeerDead(), DEATH);
        for (long t = DEATH + 500_000_000L; t < DEATH + DELAY; t += 500_000_000L) {
            assertThat(fences(m.on(new TakeoverEvent.Tick(), t))).as("tick at +%d ms", (t - DEATH) / 1_000_000).isFalse();
        }
        List<Effect> end = m.on(new TakeoverEvent.Tick(), DEATH + DELAY);
        assertThat(end).contains(new Effect.FencePeer(N1));
        assertThat(log(end)).contains("Resetting node node1 with STONITH before taking over its resources.");
        assertThat(m.fenceStatus()).isEqualTo("fencing node1 (attempt 1)");
        assertThat(m.fenceDelayed()).isFalse();
        List<Effect> fenced = m.on(new TakeoverEvent.FenceOutcome(true, "OK"), DEATH + DELAY + 3_000_000_000L);
        assertThat(starts(fenced)).containsExactly(0);
        assertThat(m.takeovers()).isEqualTo(1);
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
    }

    @Test
    void aFailedFenceAfterTheDelayIsRetriedEveryFiveSecondsAsAnyOther() {
        TakeoverMachine m = stable(N2, TakeoverTableTest.GROUPS, DELAY);
        m.on(new TakeoverEvent.PeerDead(), DEATH);
        m.on(new TakeoverEvent.Tick(), DEATH + DELAY);
        long failedAt = DEATH + DELAY + 1_000_000_000L;
        m.on(new TakeoverEvent.FenceOutcome(false, "RESETFAIL"), failedAt);
        assertThat(m.nextDeadlineNanos()).isEqualTo(failedAt + TakeoverMachine.FENCE_RETRY_NANOS);
        assertThat(m.on(new TakeoverEvent.Tick(), failedAt + TakeoverMachine.FENCE_RETRY_NANOS))
                .contains(new Effect.FencePeer(N1));
        assertThat(m.fenceStatus()).isEqualTo("fencing node1 (attempt 2)");
    }

    @Test
    void aShutdownDuringTheWaitNeverFences() {
        TakeoverMachine m = stable(N2, TakeoverTableTest.GROUPS, DELAY);
        m.on(new TakeoverEvent.PeerDead(), DEATH);
        m.on(new TakeoverEvent.ShutdownRequested(), DEATH + 1_000_000_000L);
        assertThat(m.fenceDelayed()).isFalse();
        assertThat(fences(m.on(new TakeoverEvent.Tick(), DEATH + DELAY + 1))).isFalse();
    }

    @Test
    void aPeerThatGaveUpItsGroupsIsStillNotFencedWhateverTheDelay() {
        TakeoverMachine m = stable(N2, TakeoverTableTest.GROUPS, DELAY);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), DEATH - 1);
        List<Effect> out = m.on(new TakeoverEvent.PeerDead(), DEATH);
        assertThat(log(out)).contains("Dead node node1 gave up resources.").doesNotContain("Delaying");
        assertThat(fences(out)).isFalse();
        assertThat(m.fenceDelayed()).isFalse();
    }

    @Test
    void aNegativeDelayIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TakeoverSettings.DEFAULTS.withFencing(true)
                        .withFenceDelayNanos(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
