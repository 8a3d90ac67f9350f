package org.jheartbeat.core.takeover;

import java.util.List;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.jheartbeat.core.takeover.Announcement.StonithReport;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.TakeoverMachine.Handover;

/**
 * The loss of the peer in the {@link TakeoverMachine}'s table: the PeerDead/PeerShutdown column (a peer
 * that gave up its resources is taken over at once; one that may hold groups is fenced first when a STONITH
 * device is configured, after the fence delay when this node loses the fencing race) and the FENCING row's
 * FenceOutcome (fenced: take everything over; failed: retry; the peer restarted meanwhile: take nothing).
 * Heartbeat 3.0.6's {@code hb_resource.c} (mach_down, STONITH before takeover) with jheartbeat's fencing
 * race (docs/design/stonith.md). The bookkeeping of the fence is {@link Fencing}'s; this class decides.
 * Works on the machine's state; owned by the machine's thread.
 */
final class PeerLoss {
    private final TakeoverMachine m;
    /**
     * The peer's presence when it was last declared dead: heard again (the same run), it is as it was then. A
     * peer that never noticed the partition sends no {@code resource} report of its own, so "heard again" is
     * not "reported stable": a peer in the middle of a standby exchange may still take groups back.
     */
    private PeerPresence presenceBeforeDeath = PeerPresence.STABLE;
    /** Times this node took over the groups of a dead or departed peer (metrics). */
    private long takeovers;

    PeerLoss(TakeoverMachine machine) {
        this.m = machine;
    }

    /** See {@link TakeoverMachine#takeovers}. */
    long takeovers() {
        return takeovers;
    }

    /**
     * PeerDead, PeerShutdown, PeerReturned and FenceOutcome.
     *
     * @return whether the event is of this family (else nothing was done)
     */
    boolean on(TakeoverEvent event, List<Effect> out, long now) {
        if (event instanceof TakeoverEvent.PeerDead e) {
            m.fence.peerNeverDelays(e.peerNeverDelaysFencing());
            peerGone(false, out, now);
        } else if (event instanceof TakeoverEvent.PeerShutdown) {
            out.add(new LogLine(Level.INFO, "Received shutdown notice from '" + m.peer + "'."));
            peerGone(true, out, now);
        } else if (event instanceof TakeoverEvent.PeerReturned) {
            peerReturned(out, now);
        } else if (event instanceof TakeoverEvent.FenceOutcome e) {
            fenceOutcome(e, out, now);
        } else {
            return false;
        }
        return true;
    }

    private void peerGone(boolean clean, List<Effect> out, long now) {
        if (m.peerSelfFencing) {
            // it said it resets itself because of a stop failure: what it could not stop is gone with it
            m.peerSelfFencing = false;
            m.slots.forEach(s -> s.peerBlocked = false);
        }
        if (m.state == TakeoverState.FENCING && m.fence.peerRestarted() && m.peerPresence.alive()) {
            // the run heard since the fence was asked for left too: the outcome decides (fenceOutcome)
            m.peerPresence = clean ? PeerPresence.GONE : PeerPresence.LOST;
            m.peerReport = null;
        }
        if (m.peerPresence == PeerPresence.GONE || m.state == TakeoverState.FENCING) {
            return;
        }
        boolean wasStable = m.peerPresence == PeerPresence.STABLE;
        presenceBeforeDeath = m.peerPresence;
        boolean gaveUp = clean || !peerMayHoldAGroup() && wasStable;
        int peerWeight = peerGroupsHeld();
        m.fence.peerHoldsBeforeDelay(m.peerHolds);
        m.peerPresence = gaveUp ? PeerPresence.GONE : PeerPresence.LOST;
        m.peerHolds = ResourceSet.NONE;
        m.answerWhenSettled = false;
        if (clean) {
            m.peerReport = null; // it released everything; a new run reports anew
        }
        if (m.exchange.inProgress()) {
            m.exchange.finish(Handover.CANCELLED, m.peer + " left the cluster; its groups are taken over");
        }
        if (m.state == TakeoverState.SHUTTING_DOWN) {
            return;
        }
        if (gaveUp) {
            out.add(new LogLine(Level.INFO, "Dead node " + m.peer + " gave up resources."));
            out.add(new Announce(new StonithReport(m.peer, "unneeded")));
        } else if (m.fence.fencesBeforeTakeover()) {
            int ourWeight = groupsHeldHere();
            // no race when we hold nothing in a settled cluster: the peer then sees a node that gave up
            // resources and does not fence it (the rule above, on its side), so waiting would only delay
            // the failover of an active/passive pair. Before the cluster settled both may fence: race.
            boolean peerFencesUs = ourWeight > 0 || !wasStable;
            if (m.fence.weWait(peerWeight, ourWeight, peerFencesUs)) {
                delayFencing(peerWeight, ourWeight, out, now);
                return;
            }
            out.add(new LogLine(Level.INFO, "Resetting node " + m.peer + " with STONITH before taking over its resources."));
            startFencing(out);
            return;
        } else {
            out.add(new LogLine(Level.WARN, "No STONITH device configured."));
            out.add(new LogLine(Level.WARN, "Shared disks are not protected."));
            out.add(new Announce(new StonithReport(m.peer, "n_stnth")));
        }
        takeOver(out);
    }

    /**
     * The fencing race of a two-node cut (Pacemaker's {@code priority-fencing-delay}; Heartbeat 3.0.6 has
     * no such delay): this node lost it, so it waits {@link TakeoverSettings#fenceDelayNanos} before its first FencePeer,
     * long enough for the winner's fence to power it off first. Nothing is fenced or taken over meanwhile.
     */
    private void delayFencing(int peerWeight, int ourWeight, List<Effect> out, long now) {
        String line = m.fence.startDelay(m.state, m.peer, peerWeight, ourWeight);
        m.state = TakeoverState.FENCING;
        m.exchange.step(StandbyStep.NONE);
        m.deadlineNanos = now + m.fence.delayNanos();
        out.add(new LogLine(Level.INFO, line));
    }

    /**
     * This node's weight in the fencing race: its groups that may run here (running, starting, stopping,
     * or blocked by a failed stop). With none in a settled cluster, the peer sees a node that gave up
     * resources and does not fence it, so this node does not wait.
     */
    private int groupsHeldHere() {
        int n = 0;
        for (GroupSlot s : m.slots) {
            GroupState a = s.actual;
            if (a == GroupState.RUNNING || a == GroupState.STARTING || a == GroupState.STOPPING
                    || a == GroupState.BLOCKED) {
                n++;
            }
        }
        return n;
    }

    /**
     * The peer's weight in the fencing race: the groups its last {@code rsc_hold} report covers, read
     * as {@link #peerMayHoldAGroup} reads it (its {@code local} bit covers the groups it prefers, its
     * {@code foreign} bit ours).
     */
    private int peerGroupsHeld() {
        int n = 0;
        for (int i = 0; i < m.slots.size(); i++) {
            if (m.peerMayRun(i)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Whether the peer's last report says it holds a kind of group that exists here. Its bits are
     * Heartbeat's {@code rsc_hold}, relative to the peer, and set for a kind after its acquisition
     * even when haresources has no group of that kind (Heartbeat 3.0.6 announces {@code local} from a
     * node that prefers none): such a bit holds nothing, so a peer dead with only such bits gave up
     * nothing and is not fenced. Without this rule an idle node and the node running every group
     * both fenced each other when every link was cut, and the UPSs powered both off (fault matrix,
     * docs/benchmarks.md).
     */
    private boolean peerMayHoldAGroup() {
        for (GroupState reported : m.peerReport == null ? List.<GroupState>of() : m.peerReport.values()) {
            if (GroupState.occupies(reported)) {
                // its own account: the bits miss groups taken as offers or after maintenance, and a group our
                // haresources no longer defines (a reload) still runs there
                return true;
            }
        }
        boolean peerLocalGroups = false;
        boolean peerForeignGroups = false;
        for (int i = 0; i < m.slots.size(); i++) {
            peerLocalGroups |= !m.isLocal(i);
            peerForeignGroups |= m.isLocal(i);
        }
        return m.peerHolds.includesLocal() && peerLocalGroups || m.peerHolds.includesForeign() && peerForeignGroups;
    }

    void startFencing(List<Effect> out) {
        m.fence.startAttempts(m.state, m.peer);
        m.state = TakeoverState.FENCING;
        m.exchange.step(StandbyStep.NONE);
        m.deadlineNanos = Long.MAX_VALUE;
        out.add(new Effect.FencePeer(m.peer));
    }

    private void takeOver(List<Effect> out) {
        takeovers++;
        for (int i = 0; i < m.slots.size(); i++) {
            if (m.maint.covers(i) && m.slots.get(i).actual != GroupState.RUNNING && !m.slots.get(i).failedHere && !m.slots.get(i).disputed) {
                out.add(new LogLine(Level.WARN, "Maintenance (" + m.maint.reason(i) + "): resource group "
                        + m.slots.get(i).key() + " would be taken over from " + m.peer + " now; it is left as it is"
                        + " ('hb maintenance off' decides from what runs)"));
            }
        }
        out.add(new LogLine(Level.INFO, "Resources being acquired from " + m.peer + "."));
        m.state = TakeoverState.STABLE;
        m.exchange.step(StandbyStep.NONE);
        m.deadlineNanos = Long.MAX_VALUE;
        m.setDesired(true, true, true);
        m.settleInfo = Settlement.MACH_DOWN;
    }

    private void fenceOutcome(TakeoverEvent.FenceOutcome e, List<Effect> out, long now) {
        if (m.state != TakeoverState.FENCING) {
            return;
        }
        if (m.fence.peerRestarted()) {
            // heard with a new generation since the fence was asked for: whether the device reset the old run
            // or the new one, the run it was meant for is over. A new run that is down again is declared dead
            // by its silence (and fenced then); one that runs holds what it took since: nothing is taken over
            m.fence.peerRestarted(false);
            String outcome = (e.fenced() ? "confirmed" : "failed") + " (" + e.detail() + ")";
            if (m.peerPresence == PeerPresence.LOST) {
                // the new run died too, and may hold what it took since: it is fenced in turn
                out.add(new LogLine(Level.WARN, "STONITH of " + m.peer + " " + outcome + ", but " + m.peer + " restarted"
                        + " and died again since it was asked for: fencing it again."));
                startFencing(out);
                return;
            }
            if (m.peerPresence == PeerPresence.GONE) {
                out.add(new LogLine(Level.INFO, "STONITH of " + m.peer + " " + outcome + "; " + m.peer + " restarted and"
                        + " shut down since."));
                m.fence.status("fencing " + m.peer + " " + outcome + " after it restarted and shut down");
                takeOver(out);
                return;
            }
            m.fence.status("fencing " + m.peer + " " + outcome + " after it restarted");
            out.add(new LogLine(Level.WARN, "STONITH of " + m.peer + " " + outcome + ", but " + m.peer + " was heard"
                    + " restarted since it was asked for: nothing is taken over from it."));
            if (m.fence.stateBefore() == TakeoverState.NEGOTIATING) {
                // fenced before we had negotiated (its silence at initdead): negotiate now with the run heard
                // (its starting, answered in flux while fencing, is not sent again)
                m.state = TakeoverState.NEGOTIATING;
                m.deadlineNanos = now + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS;
                m.peerReports.negotiate(false, out);
                return;
            }
            PeerReports.stableTakingOursBack(m);
            return;
        }
        if (e.fenced()) {
            m.fence.fenced(m.peer, e.detail());
            out.add(new LogLine(Level.INFO, "node " + m.peer + " now reset."));
            out.add(new Announce(new StonithReport(m.peer, "OK")));
            // fenced means down: its next silence is not a new death to fence again
            m.peerPresence = PeerPresence.GONE;
            m.peerHolds = ResourceSet.NONE;
            m.peerReport = null;
            // powered off: nothing of it runs any more, whatever it could not stop
            m.slots.forEach(s -> s.peerBlocked = false);
            m.slots.forEach(s -> s.peerFailed = false);
            m.state = TakeoverState.STABLE;
            takeOver(out);
        } else {
            m.fence.failed(m.peer, e.detail(), TakeoverMachine.FENCE_RETRY_NANOS);
            out.add(new LogLine(Level.CRIT, "STONITH of " + m.peer + " failed.  Retrying... (" + e.detail()
                    + "; its resources are NOT taken over until it is fenced)"));
            m.deadlineNanos = now + TakeoverMachine.FENCE_RETRY_NANOS;
        }
    }

    /**
     * The peer is heard again after it was declared dead (a healed partition, a pause of its own): being
     * fenced, fencing goes on (it may still hold resources); in the fence delay, the fence is called off
     * and the interrupted state resumes; otherwise, and then, its holdings are announced ({@code partition})
     * and double ownership is looked for.
     */
    private void peerReturned(List<Effect> out, long nowNanos) {
        if (m.state == TakeoverState.FENCING && !m.fence.delayed()) {
            out.add(new LogLine(Level.CRIT, "Cluster node " + m.peer + " is heard again while being fenced;"
                    + " fencing goes on (it may still hold resources)."));
            return;
        }
        if (m.fence.delayed()) {
            // no FencePeer went out and nothing of the peer was taken over: calling it off is safe
            out.add(new LogLine(Level.CRIT, "Cluster node " + m.peer + " returning after partition; its fence is"
                    + " cancelled (it was delayed and not yet started)."));
            m.deadlineNanos = Long.MAX_VALUE;
            m.fence.callOffDelay("fence of " + m.peer + " cancelled: it was heard again during the fence delay");
            // a standby exchange the death cancelled does not resume; a negotiation starts over
            m.state = m.fence.resumeState();
            // it lost nothing (a restart would have come as PeerRestarted): without this, a peer that never
            // saw the partition (a one-way cut) never reports again, and at its next death it "gave up
            // resources" and is not fenced
            m.peerHolds = m.fence.peerHoldsBeforeDelay();
            if (m.state == TakeoverState.NEGOTIATING) {
                m.deadlineNanos = nowNanos + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS;
            }
        } else {
            out.add(new LogLine(Level.CRIT, "Cluster node " + m.peer + " returning after partition."));
        }
        m.peerPresence = presenceBeforeDeath == PeerPresence.IN_FLUX || presenceBeforeDeath == PeerPresence.JOINING
                ? presenceBeforeDeath : PeerPresence.STABLE;
        m.ownershipCheckDue = true; // both may run a group now: its report (kept from before) says
        if (m.state != TakeoverState.AWAITING_COMM && m.state != TakeoverState.SHUTTING_DOWN) {
            out.add(new Announce(new Resources(m.holdings(), m.settled(), Settlement.PARTITION.wireInfo())));
        }
    }
}
