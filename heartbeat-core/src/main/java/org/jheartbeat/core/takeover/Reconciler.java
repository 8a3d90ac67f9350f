package org.jheartbeat.core.takeover;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.takeover.Announcement.AskResources;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.jheartbeat.core.takeover.Announcement.ShutDone;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.Effect.StartGroup;
import org.jheartbeat.core.takeover.Effect.StopGroup;

/**
 * The reconciliation of the {@link TakeoverMachine}, run after every event: starts and stops issued so
 * that each group's actual state converges on whether it is wanted here (one operation per group at a
 * time; never a group in maintenance, never a start while another node uses our name, during a
 * resynchronisation, or while the peer's own report says it runs there), and, once nothing is starting or
 * stopping, the end of the transition in progress: the holdings announced in STABLE, the standby
 * exchange's {@code done}, the shutdown's completion. Works on the machine's state; owned by the machine's
 * thread.
 */
final class Reconciler {
    private final TakeoverMachine m;

    Reconciler(TakeoverMachine machine) {
        this.m = machine;
    }

    /**
     * Whether group {@code i} should run here: the protocol wants it here ({@code desired}, which a
     * failed start on the peer also sets: the offer), but never when it failed here or is blocked on
     * the peer (it may run there), or is disputed (the peer's haresources defines it differently).
     * FAILED and BLOCKED groups are left alone.
     */
    private boolean want(int i) {
        GroupSlot s = m.slots.get(i);
        return s.desired && !s.failedHere && !s.peerBlocked && !s.disputed;
    }

    /**
     * Whether the live peer's own report says group {@code i} runs, starts, stops or is blocked there: then
     * it is not started here, whatever the protocol wants (it starts once the peer reports it stopped or
     * failed, or is gone). Also while that peer, declared dead, is being fenced: a group we wanted anyway
     * (our own, back from the peer after a cleanup here) may still run there until the fence is confirmed,
     * which drops the report. Without a report (a Heartbeat 3.0.6 peer) the protocol alone decides.
     */
    private boolean peerReportsIt(int i) {
        return m.peerReport != null && (m.peerPresence.alive() || m.state == TakeoverState.FENCING)
                && GroupState.occupies(m.peerReport.get(m.slots.get(i).key()));
    }

    /** Issues starts/stops so that actual state converges on {@link #want}, one operation per group. */
    void reconcile(List<Effect> out) {
        for (int i = m.slots.size() - 1; i >= 0; i--) {
            if (!want(i) && m.slots.get(i).actual == GroupState.RUNNING && !m.maint.covers(i)) {
                m.slots.get(i).actual = GroupState.STOPPING;
                out.add(new StopGroup(i, m.state == TakeoverState.SHUTTING_DOWN ? GroupOpReason.SHUTDOWN
                        : m.slots.get(i).disputed ? GroupOpReason.DISPUTED
                        : m.state == TakeoverState.STANDBY_GIVING ? GroupOpReason.STANDBY_RELEASE
                        : GroupOpReason.PARTITION_RELEASE));
            }
        }
        for (int i = 0; i < m.slots.size(); i++) {
            if (want(i) && m.slots.get(i).actual == GroupState.STOPPED && !m.identityConflict && !m.resyncing && !m.maint.covers(i)
                    && !peerReportsIt(i)) {
                m.slots.get(i).actual = GroupState.STARTING;
                out.add(new StartGroup(i, m.state == TakeoverState.STANDBY_TAKING ? GroupOpReason.STANDBY_ACQUIRE
                        : m.slots.get(i).peerFailed && m.peerPresence.alive() ? GroupOpReason.OFFER_ACCEPT
                        : !m.peerPresence.alive() || !m.isLocal(i) ? GroupOpReason.TAKEOVER : GroupOpReason.LOCAL_START));
            }
        }
    }

    void settleIfDone(List<Effect> out) {
        if (!settled()) {
            return;
        }
        switch (m.state) {
            case STABLE -> {
                if (m.settleInfo != null) {
                    Settlement info = m.settleInfo;
                    m.settleInfo = null;
                    m.answerWhenSettled = false;
                    out.add(new LogLine(Level.INFO, info.logLine(m.peer)));
                    out.add(new Announce(new Resources(m.holdings(), true, info.wireInfo())));
                } else if (m.answerWhenSettled && m.peerPresence.alive()) {
                    m.answerWhenSettled = false;
                    out.add(new Announce(new Resources(m.holdings(), true, "")));
                }
            }
            case STANDBY_GIVING -> {
                if (m.exchange.step() == StandbyStep.RELEASING) {
                    m.exchange.step(StandbyStep.RELEASED);
                    // from our done on the peer starts what we gave: should it die before it reports, it may
                    // hold them (fenced, not "gave up resources")
                    ResourceSet given = m.exchange.set().mirrored();
                    m.peerHolds = ResourceSet.of(m.peerHolds.includesLocal() || given.includesLocal(),
                            m.peerHolds.includesForeign() || given.includesForeign());
                    out.add(new Announce(new AskResources(m.exchange.set(), StandbyPhase.DONE)));
                    out.add(new LogLine(Level.INFO, "Local standby process completed [" + m.exchange.set() + "]."));
                }
            }
            case STANDBY_TAKING -> {
                if (m.exchange.step() == StandbyStep.ACQUIRING) {
                    out.add(new LogLine(Level.INFO, "Standby resource acquisition done [" + m.exchange.set() + "]."));
                    out.add(new Announce(new AskResources(m.exchange.set(), StandbyPhase.DONE)));
                    m.becomeStable("", out);
                    if (m.exchange.inProgress()) {
                        m.exchange.finishDone("acquired [" + m.exchange.set().mirrored() + "] from " + m.peer);
                    }
                }
            }
            case SHUTTING_DOWN -> {
                if (m.reload.removedStopping()) {
                    return; // shutdone says we hold nothing: not while a reload still stops a removed group
                }
                List<String> left = new ArrayList<>();
                for (int i = 0; i < m.slots.size(); i++) {
                    if (m.maint.covers(i) && m.slots.get(i).actual != GroupState.STOPPED && m.slots.get(i).actual != GroupState.FAILED) {
                        left.add(m.slots.get(i).key() + " (" + m.slots.get(i).actual.displayName() + ")");
                    }
                }
                out.add(left.isEmpty() ? new LogLine(Level.INFO, "All HA resources relinquished.")
                        : new LogLine(Level.WARN, "HA resources relinquished, except resource groups in maintenance,"
                        + " left as they are: " + String.join(", ", left)));
                out.add(new Announce(new ShutDone()));
                out.add(new Effect.ShutdownComplete());
                m.state = TakeoverState.STOPPED;
            }
            default -> { }
        }
    }


    boolean settled() {
        for (int i = 0; i < m.slots.size(); i++) {
            GroupState a = m.slots.get(i).actual;
            if (a == GroupState.STARTING || a == GroupState.STOPPING) {
                return false;
            }
            if (m.maint.covers(i)) {
                continue; // left as it is: whatever runs is where it should be
            }
            if (want(i) ? a == GroupState.STOPPED && !peerReportsIt(i) : a == GroupState.RUNNING) {
                return false;
            }
        }
        return true;
    }
}
