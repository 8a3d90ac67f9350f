package org.jheartbeat.core.takeover;

import java.util.List;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;

/**
 * The rows of the {@link TakeoverMachine}'s table about this node itself: ShutdownRequested (give up every
 * group, then stop: Heartbeat 3.0.6's {@code giveup_resources}), IdentityConflict (another live node uses
 * our name: nothing is started until it is gone; nothing running is stopped for it) and GroupsDisputed
 * (groups the peer's haresources defines differently never run here). The last two are jheartbeat only
 * (docs/design/takeover.md). Works on the machine's state; owned by the machine's thread.
 */
final class LocalEvents {
    private final TakeoverMachine m;

    LocalEvents(TakeoverMachine machine) {
        this.m = machine;
    }

    /**
     * ShutdownRequested, IdentityConflict and GroupsDisputed.
     *
     * @return whether the event is of this family (else nothing was done)
     */
    boolean on(TakeoverEvent event, List<Effect> out) {
        if (event instanceof TakeoverEvent.ShutdownRequested) {
            shutdown(out);
        } else if (event instanceof TakeoverEvent.IdentityConflict e) {
            m.identityConflict = e.on();
        } else if (event instanceof TakeoverEvent.GroupsDisputed e) {
            disputed(e);
        } else {
            return false;
        }
        return true;
    }

    private void shutdown(List<Effect> out) {
        if (m.state == TakeoverState.SHUTTING_DOWN) {
            return;
        }
        if (!m.settled()) {
            out.add(new LogLine(Level.INFO, "Shutdown delayed until current resource activity finishes."));
        }
        if (m.fence.delayed()) {
            m.fence.callOffDelay("fence of " + m.peer + " not started: this node shut down during the fence delay");
        }
        m.state = TakeoverState.SHUTTING_DOWN;
        out.add(new Announce(new Resources(ResourceSet.NONE, false, "shutdown")));
        out.add(new LogLine(Level.INFO, "Giving up all HA resources."));
        m.slots.forEach(s -> s.desired = false);
    }

    private void disputed(TakeoverEvent.GroupsDisputed e) {
        boolean changed = false;
        for (int i = 0; i < m.slots.size(); i++) {
            changed |= m.slots.get(i).disputed != e.groups().contains(i);
            m.slots.get(i).disputed = e.groups().contains(i);
        }
        if (changed && m.state == TakeoverState.STABLE && m.settleInfo == null) {
            m.settleInfo = Settlement.CONFIG; // announce what we hold once the starts and stops end
        }
    }
}
