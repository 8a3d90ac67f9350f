package org.jheartbeat.core.takeover;

import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.takeover.Announcement.AskResources;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerAskResources;
import org.jheartbeat.core.takeover.TakeoverMachine.Handover;

/**
 * The standby exchange in the {@link TakeoverMachine}'s table (Heartbeat 3.0.6's {@code hb_standby} and
 * {@code ask_resources}, {@code hb_resource.c}): the PeerAskResources column (the peer's {@code me} makes
 * a settled STABLE node STANDBY_TAKING; its {@code other} lets a STANDBY_GIVING node release the set; its
 * {@code done} ends the exchange), the operator's {@code hb standby} and {@code hb takeover} requests with
 * their refusals, and the cancellation of an exchange by the peer's {@code partition} claim. What the
 * exchange stands at is {@link StandbyExchange}'s record; this class decides. Works on the machine's
 * state; owned by the machine's thread.
 */
final class StandbyHandler {
    private final TakeoverMachine m;

    StandbyHandler(TakeoverMachine machine) {
        this.m = machine;
    }

    /**
     * PeerAskResources and the operator's StandbyRequested and TakeoverRequested.
     *
     * @return whether the event is of this family (else nothing was done)
     */
    boolean on(TakeoverEvent event, List<Effect> out, long now) {
        if (event instanceof PeerAskResources e) {
            peerAskResources(e, out, now);
        } else if (event instanceof TakeoverEvent.StandbyRequested e) {
            requestStandby(e.set(), out, now);
        } else if (event instanceof TakeoverEvent.TakeoverRequested e) {
            requestTakeover(e.set(), out, now);
        } else {
            return false;
        }
        return true;
    }

    /**
     * The peer reports this node's return ({@code partition}) during a standby exchange: it declared this node
     * dead (a pause, or a one-way cut this node did not see), so for it the exchange is over (Heartbeat
     * cancels it at the death) and no {@code done} will come. (Its {@code mach_down} is not taken for that: one
     * sent to this node's previous run can still arrive, retransmitted, during a later exchange. A request of
     * ours still awaiting its answer goes on: it may yet reach the peer, retransmitted, and be answered; else
     * it times out.) Ours
     * ends too, as cancelled: groups already being stopped are stopped, nothing more is acquired, and the
     * claim is then answered as in STABLE. Without this the exchange waited for good and neither node let go
     * of the groups both ran.
     */
    void cancelOnClaim(List<Effect> out) {
        out.add(new LogLine(Level.WARN, "Standby [" + m.exchange.set() + "] cancelled: " + m.peer
                + " declared this node dead meanwhile."));
        if (m.state == TakeoverState.STANDBY_GIVING && m.exchange.step() != StandbyStep.AWAITING_PEER) {
            // we released (or are releasing) what the peer no longer comes to take: what its claim does not
            // cover runs nowhere else, so it runs here again
            for (int i = 0; i < m.slots.size(); i++) {
                boolean given = m.isLocal(i) ? m.exchange.set().includesLocal() : m.exchange.set().includesForeign();
                boolean peerHas = m.isLocal(i) ? m.peerHolds.includesForeign() : m.peerHolds.includesLocal();
                if (given && !peerHas && !m.slots.get(i).desired) {
                    m.slots.get(i).desired = true;
                    out.add(new LogLine(Level.INFO, "Taking resource group " + m.slots.get(i).key() + " back: " + m.peer
                            + " does not hold it."));
                }
            }
            // our standby announcement said we are in flux: say what we hold, stable, once the groups settled
            m.settleInfo = Settlement.STANDBY_CANCELLED;
        }
        if (m.state == TakeoverState.STANDBY_TAKING && m.exchange.step() == StandbyStep.ACQUIRING) {
            // acquired from a peer that has since taken them back: what is not running yet is not started
            ResourceSet mine = m.exchange.set().mirrored();
            for (int i = 0; i < m.slots.size(); i++) {
                if (m.slots.get(i).actual == GroupState.STOPPED && (m.isLocal(i) ? mine.includesLocal() : mine.includesForeign())) {
                    m.slots.get(i).desired = false;
                }
            }
        }
        m.state = TakeoverState.STABLE;
        m.exchange.step(StandbyStep.NONE);
        m.deadlineNanos = Long.MAX_VALUE;
        if (m.exchange.inProgress()) {
            m.exchange.finish(Handover.CANCELLED, m.peer + " declared " + m.me + " dead during the exchange");
        }
    }

    void peerAskResources(PeerAskResources e, List<Effect> out, long now) {
        switch (e.phase()) {
            case ME -> {
                out.add(new LogLine(Level.INFO, m.peer + " wants to go standby [" + e.set() + "]"));
                if (!m.peerPresence.alive()) {
                    // sent by a peer this node declared dead and has not yet heard return (its beat follows):
                    // it does not know we took its groups, and its return makes us release the ones it still
                    // runs; accepting would have both nodes let go of them (it gives them to us, we give them
                    // back), each waiting for the other. Unanswered, its request times out and it keeps them.
                    out.add(new LogLine(Level.INFO, "standby message [me] from " + m.peer + " ignored: " + m.peer
                            + " was declared dead and is not heard back yet."));
                    return;
                }
                if (m.state != TakeoverState.STABLE || !m.settled() || m.resyncing) {
                    out.add(new LogLine(Level.INFO, "standby message [me] from " + m.peer
                            + " ignored.  local resources in flux."));
                    return;
                }
                Optional<String> inMaint = maintenanceIn(e.set().mirrored());
                if (inMaint.isPresent()) {
                    out.add(new LogLine(Level.INFO, "standby message [me] from " + m.peer + " ignored: "
                            + inMaint.get()));
                    return;
                }
                m.state = TakeoverState.STANDBY_TAKING;
                m.exchange.set(e.set());
                m.exchange.step(StandbyStep.AWAITING_PEER);
                m.deadlineNanos = Long.MAX_VALUE;
                out.add(new Announce(new AskResources(e.set(), StandbyPhase.OTHER)));
            }
            case OTHER -> {
                if (m.state != TakeoverState.STANDBY_GIVING || m.exchange.step() != StandbyStep.AWAITING_PEER) {
                    return;
                }
                out.add(new LogLine(Level.INFO, "standby: " + m.peer + " can take our " + m.exchange.set() + " resources"));
                m.exchange.step(StandbyStep.RELEASING);
                m.deadlineNanos = Long.MAX_VALUE;
                boolean keepLocal = m.holdsAny(true) && !m.exchange.set().includesLocal();
                boolean keepForeign = m.holdsAny(false) && !m.exchange.set().includesForeign();
                out.add(new Announce(new Resources(ResourceSet.of(keepLocal, keepForeign), false, "standby")));
                out.add(new LogLine(Level.INFO, "give up " + m.exchange.set() + " HA resources (standby)."));
                if (m.exchange.set().includesLocal()) {
                    m.setDesiredFor(true, false);
                }
                if (m.exchange.set().includesForeign()) {
                    m.setDesiredFor(false, false);
                }
                m.failures.keepWhatThePeerCannotRun(out);
                for (int i = 0; i < m.slots.size(); i++) {
                    if (m.slots.get(i).disputed && (m.isLocal(i) ? m.exchange.set().includesLocal() : m.exchange.set().includesForeign())) {
                        m.exchange.problem("resource group " + m.slots.get(i).key() + " is defined differently on "
                                + m.me + " and " + m.peer + ": it runs on neither node until haresources agree");
                    }
                }
            }
            case DONE -> {
                if (m.state == TakeoverState.STANDBY_TAKING) {
                    out.add(new LogLine(Level.INFO, "standby: acquire [" + m.exchange.set() + "] resources from " + m.peer));
                    ResourceSet mine = m.exchange.set().mirrored();
                    if (mine.includesLocal()) {
                        m.setDesiredFor(true, true);
                    }
                    if (mine.includesForeign()) {
                        m.setDesiredFor(false, true);
                    }
                    m.peerHolds = ResourceSet.of(m.peerHolds.includesLocal() && !m.exchange.set().includesLocal(),
                            m.peerHolds.includesForeign() && !m.exchange.set().includesForeign());
                    m.exchange.step(StandbyStep.ACQUIRING);
                } else if (m.state == TakeoverState.STANDBY_GIVING && m.exchange.step() == StandbyStep.RELEASED) {
                    out.add(new LogLine(Level.INFO, "Other node completed standby takeover of "
                            + m.exchange.set() + " resources."));
                    m.becomeStable("", out);
                    m.exchange.finishDone(m.exchange.givesNothing() ? "standby [" + m.exchange.set() + "]: nothing"
                            + " to give back, " + m.me + " ran none of those resource groups; nothing moved"
                            : "standby [" + m.exchange.set() + "] completed");
                }
            }
        }
    }

    void requestStandby(ResourceSet set, List<Effect> out, long now) {
        m.exchange.request(false);
        Optional<String> refusal = refusal().or(() -> maintenanceIn(set));
        m.exchange.nextSerial();
        if (refusal.isPresent()) {
            out.add(new LogLine(Level.WARN, "Standby [" + set + "] refused: " + refusal.get()));
            m.exchange.finish(Handover.REFUSED, refusal.get());
            return;
        }
        m.exchange.begin("standby [" + set + "]");
        // the exchange still runs (the peer's view of who holds what stays Heartbeat's), but its end must
        // not read "completed" as if groups had moved (hb failback with nothing to give back)
        m.exchange.givesNothing(!(set.includesLocal() && m.holdsAny(true))
                && !(set.includesForeign() && m.holdsAny(false)));
        out.add(new LogLine(Level.INFO, "Going standby [" + set + "]."));
        m.state = TakeoverState.STANDBY_GIVING;
        m.exchange.set(set);
        m.exchange.step(StandbyStep.AWAITING_PEER);
        m.deadlineNanos = now + TakeoverMachine.STANDBY_REPLY_TIMEOUT_NANOS;
        out.add(new Announce(new AskResources(set, StandbyPhase.ME)));
    }

    /**
     * {@code hb takeover SET}: ask the peer, with Heartbeat's {@code hb_takeover rsc_hold=SET}
     * message, to hand us SET (relative to us); the peer answers by going standby with the mirrored
     * set, and this node takes the groups in STANDBY_TAKING.
     */
    void requestTakeover(ResourceSet set, List<Effect> out, long now) {
        m.exchange.request(true);
        Optional<String> refusal = refusal().or(() -> maintenanceIn(set));
        for (int i = 0; i < m.slots.size() && refusal.isEmpty(); i++) {
            if (m.slots.get(i).failedHere && (m.isLocal(i) ? set.includesLocal() : set.includesForeign())) {
                refusal = Optional.of("resource group " + m.slots.get(i).key() + " failed to start on " + m.me
                        + "; clear it first with 'hb cleanup " + m.slots.get(i).key() + "'");
            }
        }
        m.exchange.nextSerial();
        if (refusal.isPresent()) {
            out.add(new LogLine(Level.WARN, "Takeover [" + set + "] refused: " + refusal.get()));
            m.exchange.finish(Handover.REFUSED, refusal.get());
            return;
        }
        m.exchange.begin("takeover [" + set + "]");
        m.exchange.deadlineNanos(now + TakeoverMachine.TAKEOVER_REPLY_TIMEOUT_NANOS);
        out.add(new LogLine(Level.INFO, "Asking " + m.peer + " to hand over [" + set + "] resources (hb_takeover)."));
        out.add(new Announce(new Announcement.Takeover(set)));
    }

    private Optional<String> refusal() {
        if (!m.peerPresence.alive()) {
            return Optional.of(m.peer + " is not alive");
        }
        if (m.state != TakeoverState.STABLE || !m.settled()) {
            return Optional.of((m.state == TakeoverState.STANDBY_GIVING || m.state == TakeoverState.STANDBY_TAKING
                    ? "standby in progress" : "local resources in flux")
                    + " (" + m.state.name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
        if (m.peerPresence != PeerPresence.STABLE) {
            return Optional.of(m.peer + "'s resources are in flux");
        }
        if (m.resyncing) {
            return Optional.of("this node did not run for a while and waits for " + m.peer + "'s account of what runs");
        }
        if (m.exchange.inProgress()) {
            return Optional.of("standby in progress (" + m.exchange.detail() + ")");
        }
        return Optional.empty();
    }

    /** The first group of {@code set} (relative to this node) in maintenance, as a refusal; empty if none. */
    private Optional<String> maintenanceIn(ResourceSet set) {
        for (int i = 0; i < m.slots.size(); i++) {
            if ((m.isLocal(i) ? set.includesLocal() : set.includesForeign()) && m.maint.covers(i)) {
                return Optional.of("resource group " + m.slots.get(i).key() + " is in maintenance ("
                        + m.maint.reason(i) + "); end it first with 'hb maintenance off'");
            }
        }
        return Optional.empty();
    }
}
