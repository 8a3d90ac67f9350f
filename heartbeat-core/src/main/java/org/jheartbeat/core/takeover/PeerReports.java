package org.jheartbeat.core.takeover;

import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.jheartbeat.core.takeover.Announcement.Starting;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerResources;
import org.jheartbeat.core.takeover.TakeoverMachine.Handover;

/**
 * The start-up and the peer's reports in the {@link TakeoverMachine}'s table: CommUp (AWAITING_COMM →
 * NEGOTIATING, {@code starting} sent), the NEGOTIATING row (take our own groups the peer does not run once
 * its answer is stable, both start, or it times out: Heartbeat 3.0.6's {@code hb_resource.c}), the
 * peer's {@code starting}, its {@code resource} reports (audit, auto_failback, a {@code partition} claim),
 * its own per-group account ({@code jhb-groups}) and its restart (it holds nothing now: our groups back).
 * Works on the machine's state; owned by the machine's thread.
 */
final class PeerReports {
    private final TakeoverMachine m;
    /** The next peer report was sent before the peer's part in the current standby exchange (set by the engine). */
    private boolean claimPredatesExchange;

    PeerReports(TakeoverMachine machine) {
        this.m = machine;
    }

    /** See {@link TakeoverMachine#claimPredatesExchange}. */
    void claimPredatesExchange(boolean older) {
        claimPredatesExchange = older;
    }

    /**
     * CommUp, PeerStarting, PeerResources, PeerRestarted and PeerGroupStates.
     *
     * @return whether the event is of this family (else nothing was done)
     */
    boolean on(TakeoverEvent event, List<Effect> out, long now) {
        if (event instanceof TakeoverEvent.CommUp) {
            commUp(out, now);
        } else if (event instanceof TakeoverEvent.PeerStarting) {
            peerStarting(out);
        } else if (event instanceof PeerResources e) {
            peerResources(e, out, now);
        } else if (event instanceof TakeoverEvent.PeerRestarted) {
            peerRestarted(out, now);
        } else if (event instanceof TakeoverEvent.PeerGroupStates e) {
            peerGroupStates(e);
        } else {
            return false;
        }
        return true;
    }

    private void commUp(List<Effect> out, long now) {
        if (m.state != TakeoverState.AWAITING_COMM) {
            return;
        }
        if (m.peerPresence == PeerPresence.UNKNOWN) {
            m.peerPresence = PeerPresence.IN_FLUX; // comm is up: the peer is heard, or about to be declared dead
        }
        m.state = TakeoverState.NEGOTIATING;
        m.deadlineNanos = now + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS;
        m.failures.announce(out);
        out.add(new Announce(new Starting()));
    }

    /**
     * The peer started again (a new generation): whatever it held before, it holds nothing now, so this
     * node takes its own groups back (e.g. those it handed over with {@code hb standby}), and a
     * hand-over with the old peer ends. Its failed starts are forgotten; a failed stop is not (the
     * resource may still run there until it says otherwise, or is fenced).
     */
    void peerRestarted(List<Effect> out, long now) {
        out.add(new LogLine(Level.INFO, "Heartbeat restart on node " + m.peer));
        m.peerPresence = PeerPresence.IN_FLUX;
        m.peerHolds = ResourceSet.NONE;
        m.peerReport = null;
        // no request at the device: the delay, or the pause after a failed attempt (its retry deadline)
        boolean noneAtTheDevice = m.fence.delayed() || m.deadlineNanos != Long.MAX_VALUE;
        if (m.state == TakeoverState.FENCING && noneAtTheDevice) {
            // nothing is at the device now, and the run it was meant for is over: a new daemon released what
            // the old one ran (or reports it blocked), so the fence is called off (before, a retry reset a
            // node that had just started and reported that it runs nothing)
            String when = m.fence.delayed() ? "during the fence delay" : "after a failed fencing attempt";
            m.fence.callOffDelay("fence of " + m.peer + " cancelled: it restarted " + when);
            out.add(new LogLine(Level.CRIT, "Cluster node " + m.peer + " restarted " + when + "; its fence"
                    + " is cancelled (it holds nothing now)."));
            m.state = m.fence.resumeState();
            m.deadlineNanos = m.state == TakeoverState.NEGOTIATING ? now + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS : Long.MAX_VALUE;
        } else if (m.state == TakeoverState.NEGOTIATING) {
            // our starting went to its previous run: the new one would take our answers for a node in flux
            // and wait for a stable one, as we wait for its, until both time out
            m.deadlineNanos = now + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS;
            out.add(new Announce(new Starting()));
        } else if (m.state == TakeoverState.FENCING) {
            // the device may have acted before this run started (it then runs what it took since): its
            // confirmation must not lead to a takeover (PeerLoss.fenceOutcome)
            m.fence.peerRestarted(true);
        }
        m.slots.forEach(s -> s.peerFailed = false);
        if (m.peerSelfFencing) {
            m.peerSelfFencing = false;
            m.slots.forEach(s -> s.peerBlocked = false);
        }
        if (m.exchange.inProgress()) {
            m.exchange.finish(Handover.CANCELLED, m.peer + " restarted during the exchange");
        }
        if (m.state == TakeoverState.STABLE || m.state == TakeoverState.STANDBY_GIVING
                || m.state == TakeoverState.STANDBY_TAKING) {
            if (stableTakingOursBack(m)) {
                out.add(new LogLine(Level.INFO, m.peer + " restarted and holds nothing now: acquiring the resource groups of "
                        + m.me + " it had."));
            }
        }
    }

    void peerStarting(List<Effect> out) {
        m.peerPresence = PeerPresence.JOINING;
        if (m.state == TakeoverState.AWAITING_COMM) {
            return;
        }
        m.failures.announce(out);
        boolean stable = m.state == TakeoverState.STABLE && m.settled();
        // it waits for isstable=1 (or its timeout) before taking its own groups: say so once we are
        m.answerWhenSettled = !stable;
        out.add(new Announce(new Resources(m.holdings(), stable, "")));
        if (m.state == TakeoverState.NEGOTIATING) {
            // both are starting (Heartbeat's R_BOTHSTARTING): each takes its own groups. The peer answers
            // only a starting it received, and ours went to its previous run when it restarted meanwhile:
            // waiting for its resource message would wait for the negotiation timeout
            negotiate(false, out);
        }
    }

    void peerGroupStates(TakeoverEvent.PeerGroupStates e) {
        m.peerReport = e.states();
        if (m.state == TakeoverState.STABLE) {
            m.ownershipCheckDue = true; // looked at once this event is handled (on)
        } else if (m.state != TakeoverState.SHUTTING_DOWN) {
            m.ownershipCheckDue = true; // looked at once STABLE
        }
    }

    void peerResources(PeerResources e, List<Effect> out, long now) {
        boolean wasStable = m.peerPresence == PeerPresence.STABLE;
        boolean joined = e.stable() && m.peerPresence == PeerPresence.JOINING;
        m.peerHolds = e.full() || e.held() == ResourceSet.NONE ? e.held()
                : ResourceSet.of(m.peerHolds.includesLocal() || e.held().includesLocal(),
                        m.peerHolds.includesForeign() || e.held().includesForeign());
        m.peerPresence = e.stable() ? PeerPresence.STABLE
                : m.peerPresence == PeerPresence.JOINING ? PeerPresence.JOINING : PeerPresence.IN_FLUX;
        if (e.stable() && !wasStable) {
            out.add(new LogLine(Level.INFO, "remote resource transition completed."));
        }
        if (m.state != TakeoverState.STABLE && m.state != TakeoverState.SHUTTING_DOWN) {
            m.ownershipCheckDue = true; // not looked at in this state: once STABLE
        }
        if ((m.state == TakeoverState.STANDBY_TAKING
                || m.state == TakeoverState.STANDBY_GIVING && m.exchange.step() != StandbyStep.AWAITING_PEER)
                && Settlement.PARTITION.isInfo(e.info()) && !claimPredatesExchange) {
            m.standby.cancelOnClaim(out);
        }
        if (m.state == TakeoverState.NEGOTIATING) {
            negotiate(false, out);
        } else if (m.state == TakeoverState.STABLE) {
            m.doubleOwnership.resolve(out);
            m.doubleOwnership.answerClaim(e, out);
            if (Settlement.PARTITION.isInfo(e.info()) && !m.peerHolds.includesForeign()) {
                m.doubleOwnership.reannounceLocal(out);
            }
            if (joined && m.failback != FailbackPolicy.OFF && m.holdsAny(false) && !m.peerHolds.includesLocal()) {
                out.add(new LogLine(Level.INFO, "auto_failback: giving " + m.peer + " its resource groups back"));
                m.standby.requestStandby(ResourceSet.FOREIGN, out, now);
            }
        }
    }

    /**
     * NEGOTIATING: take our own groups the peer does not run, once its answer is stable ({@code isstable=1})
     * or it is starting too (it then takes only its own), or on {@code timedOut}. Heartbeat waits for
     * {@code isstable=1} (or RQSTDELAY): an answer in flux may come from a peer still taking our groups over
     * or still stopping them. What the peer runs is its per-group report when it sends one, else its
     * {@code rsc_hold} (all or none of our groups, as Heartbeat).
     */
    void negotiate(boolean timedOut, List<Effect> out) {
        if (!timedOut && m.peerPresence != PeerPresence.STABLE && m.peerPresence != PeerPresence.JOINING) {
            return;
        }
        boolean peerRunsOurs = false;
        boolean toTake = false;
        boolean anyOurs = false;
        for (int i = 0; i < m.slots.size(); i++) {
            if (m.isLocal(i)) {
                anyOurs = true;
                peerRunsOurs |= m.peerMayRun(i);
                toTake |= !m.peerMayRun(i);
            }
        }
        if (!anyOurs) {
            peerRunsOurs = m.peerHolds.includesForeign(); // an empty share: its bits say who holds it (Heartbeat)
        }
        if (peerRunsOurs && !toTake) {
            if (m.peerPresence == PeerPresence.STABLE) {
                out.add(new LogLine(Level.INFO, "Local Resource acquisition completed. (none)"));
                m.becomeStable("", out);
            }
            return;
        }
        for (int i = 0; i < m.slots.size(); i++) {
            if (m.isLocal(i) && !m.peerMayRun(i)) {
                m.slots.get(i).desired = true;
            }
        }
        m.settleInfo = Settlement.REQ_OUR_RESOURCES;
        m.state = TakeoverState.STABLE;
        m.deadlineNanos = Long.MAX_VALUE;
        out.add(new LogLine(Level.INFO, "Acquiring resource groups of " + m.me));
    }

    /**
     * The peer's new run holds nothing: STABLE again with no exchange under way, and our own groups it had are
     * wanted here again ({@link Settlement#RESTART}).
     *
     * @return whether any of our groups was not wanted here
     */
    static boolean stableTakingOursBack(TakeoverMachine m) {
        m.state = TakeoverState.STABLE;
        m.exchange.step(StandbyStep.NONE);
        m.deadlineNanos = Long.MAX_VALUE;
        boolean missing = false;
        for (int i = 0; i < m.slots.size(); i++) {
            missing |= m.isLocal(i) && !m.slots.get(i).desired;
        }
        if (missing) {
            m.setDesiredFor(true, true);
            m.settleInfo = Settlement.RESTART;
        }
        return missing;
    }
}
