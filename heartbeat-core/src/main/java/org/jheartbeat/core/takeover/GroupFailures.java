package org.jheartbeat.core.takeover;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.Effect.StopGroup;
import org.jheartbeat.core.takeover.TakeoverEvent.GroupStarted;
import org.jheartbeat.core.takeover.TakeoverEvent.GroupStopped;
import org.jheartbeat.core.takeover.TakeoverMachine.Handover;

/**
 * The failure rows of the {@link TakeoverMachine}'s table, which apply in any state
 * (docs/design/takeover.md, "Failures"): a failed start here (FAILED, offered once to the peer), a group
 * that failed while running (stopped, then as a failed start), a failed stop (BLOCKED, the peer told never
 * to start it; or a self-fence when configured), the peer's failure reports ({@code jhb-grpfail}: take
 * over its failed start, never start what it could not stop, fence it first with STONITH), {@code hb
 * cleanup}, the failures announced to a starting peer, and the one-line problem of a group for {@code hb
 * status}. Works on the machine's {@link GroupSlot}s and state; owned by the machine's thread.
 */
final class GroupFailures {
    private final TakeoverMachine m;

    GroupFailures(TakeoverMachine machine) {
        this.m = machine;
    }

    /**
     * The failure rows and CleanupRequested: GroupStarted, GroupStopped, GroupFailedRunning, PeerGroupFailure.
     *
     * @return whether the event is of this family (else nothing was done)
     */
    boolean on(TakeoverEvent event, List<Effect> out, long now) {
        if (event instanceof GroupStarted e) {
            groupStarted(e, out);
        } else if (event instanceof GroupStopped e) {
            groupStopped(e, out);
        } else if (event instanceof TakeoverEvent.GroupFailedRunning e) {
            groupFailedRunning(e, out);
        } else if (event instanceof TakeoverEvent.PeerGroupFailure e) {
            peerGroupFailure(e, out, now);
        } else if (event instanceof TakeoverEvent.CleanupRequested e) {
            cleanup(e.group(), true, out);
        } else {
            return false;
        }
        return true;
    }

    private void groupStarted(GroupStarted e, List<Effect> out) {
        int i = e.group();
        if (e.ok()) {
            m.slots.get(i).actual = GroupState.RUNNING;
            return;
        }
        if (e.outcome() == StartOutcome.FAILED_STILL_RUNNING) {
            // offered to the peer, what is left here would run on both nodes (Pacemaker: a failed stop)
            blockHere(i, "failed to start on " + m.me + " and could not be stopped again", e.detail(), out);
            return;
        }
        failHere(i, GroupSlot.FailedHow.STARTING, e.detail(), out);
    }

    /** The group is down here after a failure: FAILED, not started here again, offered once to the peer. */
    private void failHere(int i, GroupSlot.FailedHow what, String detail, List<Effect> out) {
        m.slots.get(i).failedWhat = what;
        m.slots.get(i).actual = GroupState.FAILED;
        m.slots.get(i).failedHere = true;
        m.slots.get(i).desired = false;
        m.slots.get(i).failureDetail = detail;
        String key = m.slots.get(i).key();
        String why = detail.isEmpty() ? "" : " (" + detail + ")";
        if (m.slots.get(i).peerFailed) {
            out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + " on " + m.me + why
                    + (what == GroupSlot.FailedHow.STARTING ? " and on " : " and failed to start on ") + m.peer
                    + ": it stays stopped on both nodes until an operator clears it"
                    + " (hb cleanup " + key + ")"));
        } else if (m.peerPresence.alive()) {
            out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + " on " + m.me + why
                    + "; offering it to " + m.peer));
        } else {
            out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + " on " + m.me + why
                    + "; it stays down: " + m.peer + " is not alive to run it (hb cleanup " + key + " tries again here)"));
        }
        if (m.exchange.inProgress()) {
            m.exchange.problem("resource group " + key + " " + what + " on " + m.me + why);
        }
        out.add(new Announce(new Announcement.GroupFailed(key, GroupFailure.START)));
    }

    /**
     * Monitoring gave up on a group running here: stop all of it; {@link #groupStopped} then makes it
     * FAILED and offers it to the peer, as a failed start. A group not running here (being stopped or
     * started by an operation issued meanwhile) is left to that operation.
     */
    void groupFailedRunning(TakeoverEvent.GroupFailedRunning e, List<Effect> out) {
        int i = e.group();
        String key = m.slots.get(i).key();
        if (m.maint.covers(i)) {
            out.add(new LogLine(Level.WARN, "Resource group " + key + " failed while running (" + e.detail()
                    + "), but it is in maintenance (" + m.maint.reason(i) + "); nothing is done"));
            return;
        }
        if (m.slots.get(i).actual != GroupState.RUNNING) {
            out.add(new LogLine(Level.WARN, "Resource group " + key + " failed while running (" + e.detail()
                    + "), but it is " + m.slots.get(i).actual + " here now; nothing more is done for that failure"));
            return;
        }
        out.add(new LogLine(Level.CRIT, "Resource group " + key + " failed on " + m.me + " (" + e.detail()
                + "): stopping it; it leaves this node"));
        m.slots.get(i).failingRunning = true;
        m.slots.get(i).failureDetail = e.detail();
        m.slots.get(i).actual = GroupState.STOPPING;
        out.add(new StopGroup(i, GroupOpReason.MONITOR_FAILURE));
    }

    void groupStopped(GroupStopped e, List<Effect> out) {
        int i = e.group();
        boolean failing = m.slots.get(i).failingRunning;
        m.slots.get(i).failingRunning = false;
        if (e.ok() && failing) {
            failHere(i, GroupSlot.FailedHow.RUNNING, m.slots.get(i).failureDetail, out);
            return;
        }
        if (e.ok()) {
            m.slots.get(i).actual = GroupState.STOPPED;
            return;
        }
        blockHere(i, "could not be stopped on " + m.me, e.detail(), out);
    }

    /**
     * A stop of the group failed here (its own, or the rollback of a failed start): it may still run
     * here, so it is BLOCKED, the peer is told not to start it ({@code jhb-grpfail stop}), and only
     * {@code hb cleanup} (which stops it once more) frees it; with self-fencing this node resets instead.
     *
     * @param what what happened, after the group's key in the log ("could not be stopped on node1")
     */
    private void blockHere(int i, String what, String detail, List<Effect> out) {
        m.slots.get(i).actual = GroupState.BLOCKED;
        m.slots.get(i).failureDetail = detail;
        String key = m.slots.get(i).key();
        String why = detail.isEmpty() ? "" : " (" + detail + ")";
        if (m.selfFence && m.state != TakeoverState.STOPPED) {
            out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + why
                    + ": resetting " + m.me + " (self-fencing on a stop failure is configured); " + m.peer
                    + " takes the group over once " + m.me + " is gone."));
            out.add(new Announce(new Announcement.GroupFailed(key, GroupFailure.SELF_FENCE)));
            out.add(new Effect.SelfFence("resource group " + key + " could not be stopped" + why));
            return;
        }
        out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + why
                + ": it may still run here. It is blocked: nothing starts or stops it, and " + m.peer
                + " is told not to start it; " + m.peer + " fences " + m.me + " first if it has a STONITH device."
                + " Otherwise stop it by hand, then run 'hb cleanup " + key + "'."));
        if (m.exchange.inProgress()) {
            m.exchange.problem("resource group " + key + " " + what + why + "; it stays here, blocked");
        }
        out.add(new Announce(new Announcement.GroupFailed(key, GroupFailure.STOP)));
    }

    /** Tells the peer of every failure it must know about: before {@code starting} or a {@code resource} answer. */
    void announce(List<Effect> out) {
        for (int i = 0; i < m.slots.size(); i++) {
            if (m.slots.get(i).actual == GroupState.BLOCKED) {
                out.add(new Announce(new Announcement.GroupFailed(m.slots.get(i).key(), GroupFailure.STOP)));
            } else if (m.slots.get(i).failedHere) {
                out.add(new Announce(new Announcement.GroupFailed(m.slots.get(i).key(), GroupFailure.START)));
            }
        }
    }

    void peerGroupFailure(TakeoverEvent.PeerGroupFailure e, List<Effect> out, long now) {
        int i = e.group();
        String key = m.slots.get(i).key();
        switch (e.failure()) {
            case START -> {
                m.slots.get(i).peerFailed = true;
                if (m.exchange.inProgress()) {
                    m.exchange.problem(m.peer + " could not start resource group " + key
                            + (m.slots.get(i).failedHere ? "" : "; it runs on " + m.me + " again"));
                }
                if (m.slots.get(i).failedHere) {
                    out.add(new LogLine(Level.CRIT, "Resource group " + key + " failed to start on " + m.peer
                            + " and on " + m.me + ": it stays stopped on both nodes until an operator clears it"
                            + " (hb cleanup " + key + ")"));
                } else if (m.slots.get(i).peerBlocked) {
                    out.add(new LogLine(Level.INFO, m.peer + " could not start resource group " + key
                            + "; not taking it: it is blocked on " + m.peer));
                } else if (m.state == TakeoverState.STABLE || m.state == TakeoverState.NEGOTIATING
                        || m.state == TakeoverState.STANDBY_GIVING || m.state == TakeoverState.STANDBY_TAKING) {
                    out.add(new LogLine(Level.WARN, m.peer + " could not start resource group " + key
                            + "; taking it over"));
                    m.slots.get(i).desired = true;
                }
            }
            case STOP -> {
                m.slots.get(i).peerBlocked = true;
                if (m.exchange.inProgress()) {
                    m.exchange.problem("resource group " + key + " could not be stopped on " + m.peer
                            + "; it stays there, blocked");
                }
                if (m.fence.configured() && m.state != TakeoverState.FENCING && m.state != TakeoverState.SHUTTING_DOWN
                        && m.state != TakeoverState.AWAITING_COMM) {
                    out.add(new LogLine(Level.CRIT, "Resource group " + key + " could not be stopped on " + m.peer
                            + ": resetting " + m.peer + " with STONITH before starting it here."));
                    if (m.exchange.inProgress()) {
                        m.exchange.finish(Handover.FAILED, m.exchange.problems()
                                + "; " + m.peer + " is being fenced");
                    }
                    m.peerLoss.startFencing(out);
                } else {
                    out.add(new LogLine(Level.CRIT, "Resource group " + key + " could not be stopped on " + m.peer
                            + ": not starting it here" + (m.fence.configured() ? "" : " (no STONITH device to make sure it is down)")
                            + " until it is cleared on " + m.peer + " (hb cleanup " + key + ")"));
                }
            }
            case SELF_FENCE -> {
                m.slots.get(i).peerBlocked = true;
                m.peerSelfFencing = true;
                if (m.exchange.inProgress()) {
                    m.exchange.problem("resource group " + key + " could not be stopped on " + m.peer
                            + ", which resets itself");
                }
                out.add(new LogLine(Level.CRIT, "Resource group " + key + " could not be stopped on " + m.peer + ", which"
                        + " resets itself: it is started here once " + m.peer + " is gone."));
            }
            case CLEAR -> {
                out.add(new LogLine(Level.INFO, "Failures of resource group " + key + " cleared on " + m.peer + "."));
                cleanup(i, false, out);
            }
        }
    }

    /** In a hand-over to the peer: groups it failed to start stay here (it would only fail again). */
    void keepWhatThePeerCannotRun(List<Effect> out) {
        for (int i = 0; i < m.slots.size(); i++) {
            if (m.slots.get(i).peerFailed && !m.slots.get(i).desired && (m.slots.get(i).actual == GroupState.RUNNING || m.slots.get(i).actual == GroupState.STARTING)) {
                m.slots.get(i).desired = true;
                String key = m.slots.get(i).key();
                out.add(new LogLine(Level.WARN, "Keeping resource group " + key + ": " + m.peer
                        + " could not start it (clear with 'hb cleanup " + key + "' once it can)"));
                m.exchange.problem("resource group " + key + " stays on " + m.me + ": " + m.peer + " could not start it");
            }
        }
    }

    /**
     * {@code hb cleanup}: forget failed starts (here and those the peer reported), and stop a group
     * blocked here once more (its stop decides whether it is free again).
     */
    void cleanup(int group, boolean fromOperator, List<Effect> out) {
        if (group < 0) {
            m.reload.forgetRemovedFailures();
        }
        for (int i = 0; i < m.slots.size(); i++) {
            if (group >= 0 && i != group) {
                continue;
            }
            boolean had = m.slots.get(i).failedHere || m.slots.get(i).peerFailed || m.slots.get(i).peerBlocked || m.slots.get(i).actual == GroupState.BLOCKED;
            if (m.slots.get(i).failedHere && m.slots.get(i).peerFailed && m.isLocal(i) && m.peerPresence.alive()) {
                m.slots.get(i).desired = true; // it failed on both nodes, so it runs nowhere: its preferred node tries again
            } else if (m.slots.get(i).failedHere && !m.peerPresence.alive() && m.state == TakeoverState.STABLE) {
                m.slots.get(i).desired = true; // it stayed down because the peer is not alive to run it: as logged, try here
            }
            m.slots.get(i).failedHere = false;
            m.slots.get(i).peerFailed = false;
            m.slots.get(i).peerBlocked = false;
            m.slots.get(i).failureDetail = "";
            if (m.slots.get(i).actual == GroupState.FAILED) {
                m.slots.get(i).actual = GroupState.STOPPED;
            } else if (m.slots.get(i).actual == GroupState.BLOCKED && m.maint.covers(i)) {
                out.add(new LogLine(Level.WARN, "Resource group " + m.slots.get(i).key() + " stays blocked: it is in"
                        + " maintenance (" + m.maint.reason(i) + "), nothing stops it; run 'hb cleanup' again after"
                        + " 'hb maintenance off'"));
            } else if (m.slots.get(i).actual == GroupState.BLOCKED) {
                m.slots.get(i).actual = GroupState.STOPPING;
                out.add(new StopGroup(i, GroupOpReason.CLEANUP));
            }
            if (fromOperator && had) {
                out.add(new LogLine(Level.INFO, "Failures of resource group " + m.slots.get(i).key() + " cleared."));
            }
            if (fromOperator) {
                out.add(new Announce(new Announcement.GroupFailed(m.slots.get(i).key(), GroupFailure.CLEAR)));
            }
        }
    }

    /**
     * Why group {@code i} is FAILED or BLOCKED here, or whether it failed on (or is blocked on) the
     * peer; empty when nothing is wrong. One line, for {@code hb status}.
     */
    String problem(int i) {
        List<String> p = new ArrayList<>();
        if (m.slots.get(i).actual == GroupState.BLOCKED) {
            p.add("could not be stopped here" + (m.slots.get(i).failureDetail.isEmpty() ? "" : ": " + m.slots.get(i).failureDetail));
        } else if (m.slots.get(i).failedHere) {
            p.add(m.slots.get(i).failedWhat + " here" + (m.slots.get(i).failureDetail.isEmpty() ? "" : ": " + m.slots.get(i).failureDetail));
        }
        if (m.slots.get(i).peerBlocked) {
            p.add("could not be stopped on " + m.peer);
        } else if (m.slots.get(i).peerFailed) {
            p.add("failed to start on " + m.peer);
        }
        if (!p.isEmpty() && (m.slots.get(i).failedHere && m.slots.get(i).peerFailed || m.slots.get(i).actual == GroupState.BLOCKED || m.slots.get(i).peerBlocked)) {
            p.add("clear with 'hb cleanup " + m.slots.get(i).key() + "'");
        }
        if (m.identityConflict && m.slots.get(i).actual != GroupState.RUNNING) {
            p.add("not started here while another live node uses this node's name " + m.me
                    + " (see the CRIT log line)");
        }
        return String.join("; ", p);
    }
}
