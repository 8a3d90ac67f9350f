package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.StartOutcome;
import org.jheartbeat.core.takeover.TakeoverEvent;

/**
 * How {@link NodeEngine} routes what happens on this node to the takeover machine: the end of a group's
 * start or stop (counted), of a removed group's stop, a group monitoring gave up on, a fencing attempt's
 * outcome, and the operator's {@code hb cleanup}, {@code hb standby}, {@code hb takeover} and shutdown
 * (an operator's placement ends an owed auto_failback; a cleanup may owe one). Routing only. Not
 * thread-safe (the engine's thread owns it).
 */
final class LocalEvents {
    private final NodeEngine e;

    LocalEvents(NodeEngine engine) {
        this.e = engine;
    }

    /** {@link NodeEngine#onGroupDone}. */
    List<Effect> onGroupDone(int group, boolean wasStart, boolean ok, String detail, long nowNanos, long wallMillis) {
        return groupDone(group, wasStart ? new TakeoverEvent.GroupStarted(group, ok, detail)
                : new TakeoverEvent.GroupStopped(group, ok, detail), ok, nowNanos, wallMillis);
    }

    /** {@link NodeEngine#onGroupStarted}. */
    List<Effect> onGroupStarted(int group, StartOutcome outcome, String detail, long nowNanos, long wallMillis) {
        TakeoverEvent.GroupStarted started = new TakeoverEvent.GroupStarted(group, outcome, detail);
        return groupDone(group, started, started.ok(), nowNanos, wallMillis);
    }

    /** A group start or stop ended: counted, then to the machine. */
    private List<Effect> groupDone(int group, TakeoverEvent done, boolean ok, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        String key = e.config.resourceGroups().get(group).key();
        e.counters.groupDone(key, done instanceof TakeoverEvent.GroupStarted, ok);
        e.machineFeed.on(done, out, nowNanos, wallMillis);
        return out;
    }

    /** {@link NodeEngine#onRemovedGroupStopped}. */
    List<Effect> onRemovedGroupStopped(String key, boolean ok, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        e.machineFeed.apply(e.machine.reload().removedStopEnded(key, ok, nowNanos), out, nowNanos, wallMillis);
        return out;
    }

    /** {@link NodeEngine#onGroupFailedRunning}. */
    List<Effect> onGroupFailedRunning(int group, String detail, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        e.machineFeed.on(new TakeoverEvent.GroupFailedRunning(group, detail), out, nowNanos, wallMillis);
        return out;
    }

    /** {@link NodeEngine#onCleanupRequested}. */
    List<Effect> onCleanupRequested(int group, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        e.membership.awake(out, nowNanos, wallMillis);
        e.machineFeed.on(new TakeoverEvent.CleanupRequested(group), out, nowNanos, wallMillis);
        failBackAfterCleanup(out, nowNanos, wallMillis);
        return out;
    }

    /** auto_failback after {@code hb cleanup} (here, or the peer's {@code jhb-grpfail clear}): {@link AutoFailback}. */
    void failBackAfterCleanup(List<Effect> out, long now, long wall) {
        if (e.config.autoFailback() == FailbackPolicy.OFF || !e.detector.status(e.peer).isAlive()) {
            return;
        }
        if (e.failback.cleanupCleared(e.config.resourceGroups(), e.machine::groupState, e.machine::peerFailed)) {
            e.machineFeed.failBackIfDue(out, now, wall);
        }
    }

    /** {@link NodeEngine#onFenceDone}. */
    List<Effect> onFenceDone(boolean fenced, String detail, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        e.counters.fenceDone(fenced);
        if (fenced) {
            e.maint.peerFenced(); // powered off: what it ran in maintenance is gone
            for (int i = 0; i < e.config.resourceGroups().size(); i++) {
                e.machine.maintenancePolicy().peerReported(i, false, out); // the outcome's event below reconciles
            }
        }
        e.machineFeed.on(new TakeoverEvent.FenceOutcome(fenced, detail), out, nowNanos, wallMillis);
        return out;
    }

    /** {@link NodeEngine#onShutdownRequested}. */
    List<Effect> onShutdownRequested(long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        NodeEngine.log(out, Level.INFO, "Heartbeat shutdown in progress.");
        e.machineFeed.on(new TakeoverEvent.ShutdownRequested(), out, nowNanos, wallMillis);
        return out;
    }

    /** {@link NodeEngine#onTakeoverRequested}. */
    List<Effect> onTakeoverRequested(ResourceSet set, long nowNanos, long wallMillis) {
        return operatorHandover(new TakeoverEvent.TakeoverRequested(set), nowNanos, wallMillis);
    }

    /** {@link NodeEngine#onStandbyRequested}. */
    List<Effect> onStandbyRequested(ResourceSet set, long nowNanos, long wallMillis) {
        return operatorHandover(new TakeoverEvent.StandbyRequested(set), nowNanos, wallMillis);
    }

    /** An operator's takeover or standby: the operator now places the groups (auto_failback waits). */
    private List<Effect> operatorHandover(TakeoverEvent request, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        // read first after a pause of this process, it must not act on the view from before it (refused while
        // the peer may have taken our groups meanwhile: resynchronising)
        e.membership.awake(out, nowNanos, wallMillis);
        e.failback.operatorPlaces();
        e.machineFeed.on(request, out, nowNanos, wallMillis);
        return out;
    }
}
