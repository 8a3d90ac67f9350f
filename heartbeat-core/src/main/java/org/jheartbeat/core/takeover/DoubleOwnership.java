package org.jheartbeat.core.takeover;

import java.util.List;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.Effect.StartGroup;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerResources;

/**
 * Double ownership in the {@link TakeoverMachine}: after a healed partition, a one-way cut or a pause both
 * nodes may run the same groups. The non-preferred node lets go of what the peer runs (by the peer's own
 * report, {@code jhb-groups}, when it sends one; else by its {@code rsc_hold} bits, as Heartbeat 3.0.6's
 * "Both machines own foreign resources"), a claim of the peer on our groups is answered with our
 * holdings, our groups are re-announced once the peer lets go, and the end of a resynchronisation after a
 * pause drops what the peer took over meanwhile. Only the non-preferred node ever stops for these rules,
 * so the two nodes never both let go. Works on the machine's state; owned by the machine's thread.
 */
final class DoubleOwnership {
    private final TakeoverMachine m;
    /** Whether a frame the peer sent after its last report is missing (told by the engine on each frame). */
    private boolean peerReportMayBeOld;

    DoubleOwnership(TakeoverMachine machine) {
        this.m = machine;
    }

    /** See {@link TakeoverMachine#peerReportMayBeOld}. */
    void peerReportMayBeOld(boolean mayBeOld) {
        peerReportMayBeOld = mayBeOld;
    }

    /**
     * Resync and PeerGroupsRunning.
     *
     * @return whether the event is of this family (else nothing was done)
     */
    boolean on(TakeoverEvent event, List<Effect> out) {
        if (event instanceof TakeoverEvent.Resync e) {
            resync(e, out);
        } else if (event instanceof TakeoverEvent.PeerGroupsRunning e) {
            releaseWhatThePreferredNodeRuns(e.groups(), out);
        } else {
            return false;
        }
        return true;
    }

    /**
     * After every event: a report of the peer's holdings that came outside STABLE is looked at once the
     * machine can act on it. With the peer's own report, a group it runs itself is let go in a standby
     * exchange too (the peer may ignore ours while in flux, and the exchange then waits 10 s); with bits
     * alone only in STABLE.
     */
    void resolveIfDue(List<Effect> out) {
        if (m.ownershipCheckDue && (m.state == TakeoverState.STABLE || m.peerReport != null
                && (m.state == TakeoverState.STANDBY_GIVING || m.state == TakeoverState.STANDBY_TAKING))) {
            m.ownershipCheckDue = false;
            resolve(out);
        }
    }

    /**
     * {@link TakeoverEvent.Resync}: on, starts are held back (see {@link Reconciler#reconcile}); off, a group the peer
     * holds is no longer wanted here unless it runs here already, so the frames read first after the pause
     * (a negotiation's answer, a standby's {@code done}) start nothing the peer took over meanwhile.
     */
    private void resync(TakeoverEvent.Resync e, List<Effect> out) {
        if (e.on()) {
            m.resyncing = true;
            return;
        }
        if (!m.resyncing) {
            return;
        }
        m.resyncing = false;
        if (m.state == TakeoverState.STABLE) {
            resolve(out);
        }
        for (int i = 0; i < m.slots.size(); i++) {
            // its report, or its bits: a takeover it did while we were paused may be in its bits only (its
            // report of it waits until it hears us)
            boolean peerHas = e.peerHolds().contains(i) || (m.isLocal(i) ? m.peerHolds.includesForeign() : m.peerHolds.includesLocal());
            if (peerHas && m.slots.get(i).desired && m.slots.get(i).actual == GroupState.STOPPED && m.peerPresence.alive()) {
                m.slots.get(i).desired = false;
                // announced as what runs (audit), not as an acquisition whose bits would claim the group
                m.settleInfo = m.state == TakeoverState.STABLE ? Settlement.CLAIMED : m.settleInfo;
                out.add(new LogLine(Level.WARN, "Not starting resource group " + m.slots.get(i).key() + ": " + m.peer
                        + " holds it (it took it over while this node did not run)."));
            }
        }
    }

    /**
     * {@link TakeoverEvent.PeerGroupsRunning}: in STABLE (or while our standby request awaits its answer), a
     * group of the peer's that runs here and that the
     * peer reports running there is stopped here. Only the non-preferred node ever stops for this rule, so the
     * two nodes never both let go; the preferred node's copy is never stopped by it.
     */
    private void releaseWhatThePreferredNodeRuns(java.util.Set<Integer> peerRuns, List<Effect> out) {
        boolean givingBack = m.state == TakeoverState.STANDBY_GIVING && m.exchange.step() == StandbyStep.AWAITING_PEER;
        if (m.state != TakeoverState.STABLE && !givingBack || m.resyncing || !m.peerPresence.alive()) {
            return;
        }
        boolean released = false;
        for (int i : peerRuns) {
            if (i < m.slots.size() && !m.isLocal(i) && m.slots.get(i).desired && m.slots.get(i).actual == GroupState.RUNNING && !m.slots.get(i).peerFailed
                    && !m.slots.get(i).peerBlocked && !m.slots.get(i).disputed && !m.maint.covers(i)) {
                m.slots.get(i).desired = false;
                released = true;
                out.add(new LogLine(Level.ERROR, "Resource group " + m.slots.get(i).key() + " runs on both " + m.me + " and "
                        + m.peer + " (" + m.peer + " reports it running there): releasing it here, " + m.peer
                        + " is its preferred node."));
            }
        }
        if (released && m.settleInfo == null) {
            m.settleInfo = Settlement.PARTITION;
        }
    }

    /** Both nodes run the same groups (a healed partition): the non-preferred node lets go. */
    void resolve(List<Effect> out) {
        // after a pause the reports read first may be stale: decided at the end of the resynchronisation
        if (m.resyncing) {
            return;
        }
        // with the peer's own report: release exactly what it runs or starts itself; with only its rsc_hold
        // (Heartbeat's share bit, not its groups), all of its share, except a group it reported it could not
        // start (jhb-grpfail): that one does not run there, so this node keeps it
        boolean fromReport = m.peerReport != null;
        if (fromReport && peerReportMayBeOld) {
            // with a frame the peer sent after its last report missing, that report may be older than the done
            // or resource just read (a report is sent before them): a group it handed over would be released
            // on a stale "running"
            m.ownershipCheckDue = true; // looked at again once the gap is filled
            return;
        }
        if (!fromReport && !(m.peerHolds.includesLocal() && m.holdsAny(false))) {
            return;
        }
        boolean released = false;
        for (int i = 0; i < m.slots.size(); i++) {
            GroupState there = fromReport ? m.peerReport.get(m.slots.get(i).key()) : null;
            boolean runsThere = fromReport
                    ? m.peerPresence.alive() && (there == GroupState.RUNNING || there == GroupState.STARTING)
                    : !m.slots.get(i).peerFailed;
            if (!m.isLocal(i) && m.slots.get(i).desired && runsThere) {
                m.slots.get(i).desired = false;
                released = true;
            }
        }
        if (released) {
            out.add(new LogLine(Level.ERROR, "Both machines own foreign resources! Releasing "
                    + m.peer + "'s groups, which it runs itself."));
            m.settleInfo = Settlement.PARTITION;
        }
    }

    /**
     * The peer took over our groups from this node, declared dead ({@code mach_down}), or saw it return
     * ({@code partition}), and says it holds them ({@code foreign} in its {@code rsc_hold}) while they
     * run here: this process was stopped, or cut off, and, having seen no partition itself, announced
     * nothing. Our holdings, announced now ({@code info=audit}), make the peer release them
     * ({@link #resolve} there): the copy on the non-preferred node stops. Other reports
     * are not answered: the bits follow the protocol and may claim groups that do not run there.
     */
    void answerClaim(PeerResources e, List<Effect> out) {
        if ((Settlement.MACH_DOWN.isInfo(e.info()) || Settlement.PARTITION.isInfo(e.info())) && e.held().includesForeign()
                && m.holdsAny(true) && m.settleInfo == null) {
            out.add(new LogLine(Level.ERROR, "Both machines own our resources! Telling " + m.peer
                    + " which of them run here."));
            m.settleInfo = Settlement.CLAIMED;
        }
    }

    /**
     * The peer let go of our groups after a healed partition: neighbours may still point at it, so
     * run our running groups' start again (resources that run are re-asserted, e.g. the IP agent's
     * gratuitous ARP), without stopping anything.
     */
    void reannounceLocal(List<Effect> out) {
        for (int i = 0; i < m.slots.size(); i++) {
            if (m.isLocal(i) && m.slots.get(i).actual == GroupState.RUNNING && !m.identityConflict && !m.resyncing && !m.maint.covers(i)) {
                m.slots.get(i).actual = GroupState.STARTING;
                out.add(new StartGroup(i, GroupOpReason.REANNOUNCE));
            }
        }
    }
}
