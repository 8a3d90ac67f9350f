package org.jheartbeat.core.protocol;

import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.PeerPresence;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.takeover.TakeoverState;

/**
 * How {@link NodeEngine} feeds the takeover machine and passes its effects on: events go in after what
 * {@link ConfigAgreement#admit} held back for the peer's {@code jhb-config}; our {@code jhb-groups} report
 * goes out before the announcements of the same change; announcements become {@code resource} messages
 * (with {@code rsc_hold}'s bits), {@code ShutdownComplete} starts the final beats; auto_failback is checked
 * when the machine's peer presence says the peer joined ({@link AutoFailback}), and the double ownership
 * the peer's report shows is handed to the machine ({@link PeerRuns#runningOnBoth}). Routing only. Not
 * thread-safe (the engine's thread owns it).
 */
final class MachineFeed {
    /** After {@code shutdone}, keep beating this long so the peer hears it (Heartbeat: about 1 s). */
    private static final long FINAL_BEATS_NANOS = 1_000_000_000L;
    private final NodeEngine e;

    MachineFeed(NodeEngine engine) {
        this.e = engine;
    }

    /** The machine lets go of what the peer reports running too ({@link PeerRuns#runningOnBoth}). */
    void releaseWhatThePeerReportsRunning(List<Effect> out, long now, long wall) {
        java.util.Set<Integer> runs = PeerRuns.runningOnBoth(e.machine.holdings(), e.peerSeq.missing().isEmpty(),
                e.machine.state(), () -> e.groupReports.peerHolding(e.config.resourceGroups(), e.peerSeq.generation(),
                        java.util.EnumSet.of(GroupState.RUNNING, GroupState.STARTING)));
        if (!runs.isEmpty()) {
            on(new TakeoverEvent.PeerGroupsRunning(runs), out, now, wall);
        }
    }

    /**
     * Feeds {@code event} (null: none) to the machine, after what {@link ConfigAgreement#admit} held back
     * for the peer's {@code jhb-config}, unless it holds this one back too. When the machine's record of the
     * peer says it has joined ({@link AutoFailback#peerJoined}), the failback owed to it is checked then.
     */
    void feed(TakeoverEvent event, List<Effect> out, long now, long wall) {
        boolean joined = false;
        for (TakeoverEvent due : e.agreement.admit(event, e.machine.state() == TakeoverState.NEGOTIATING, now,
                e.peerSeq.generation())) {
            PeerPresence before = e.machine.peerPresence();
            on(due, out, now, wall);
            joined |= e.failback.peerJoined(before, e.machine.peerPresence(),
                    e.config.autoFailback() != FailbackPolicy.OFF);
        }
        if (joined) {
            failBackIfDue(out, now, wall);
        }
    }

    /** Hands {@code event} to the machine at once (not held back as by {@link #feed}), its effects passed on. */
    void on(TakeoverEvent event, List<Effect> out, long now, long wall) {
        apply(e.machine.on(event, now), out, now, wall);
    }

    /**
     * Passes the machine's effects on to the shell, in order, except the two that are the engine's:
     * {@link Effect.Announce} becomes a transmitted message, {@link Effect.ShutdownComplete} starts the
     * last beats before {@link Effect.Exit}.
     */
    void apply(List<Effect> effects, List<Effect> out, long now, long wall) {
        // before the announcements of the same change, so the peer's status never trails its protocol; also
        // to a peer we take for dead when an announcement goes out (a one-way cut: it may hear our bits, and
        // must not read them against an older report); and to a peer we take for dead on each change: across a
        // one-way cut it hears us and must not start a group we take over
        boolean announces = effects.stream().anyMatch(effect -> effect instanceof Effect.Announce);
        e.groupReports.due(e.config.resourceGroups(), e.machine::groupState, e.machine.reload().removedLeftHere(),
                e.peerSeq.generation(), e.local.active() && (announces || e.detector.status(e.peer).isAlive()),
                e.local.active()).ifPresent(m -> e.transmit(out, m, wall));
        for (Effect effect : effects) {
            if (effect instanceof Effect.Announce an) {
                MaintenanceCoordination.beforeAnnouncement(an.message(), e.machine.maintenancePolicy().setting(), e::runningKeys)
                        .ifPresent(m -> e.transmit(out, m, wall));
                e.transmit(out, ResourceMessages.encode(e.rscHold.sent(an.message())), wall);
            } else if (effect instanceof Effect.ShutdownComplete) {
                e.exitAtNanos = now + FINAL_BEATS_NANOS;
            } else {
                out.add(effect);
            }
        }
    }

    /** Heartbeat's auto_failback: the standby for {@code foreign} once {@link AutoFailback#standbyDue}. */
    void failBackIfDue(List<Effect> out, long now, long wall) {
        e.failback.standbyDue(() -> e.rscHold.value().includesForeign()
                        || AutoFailback.runsAGroupOf(e.peer, e.config.resourceGroups(), e.machine::groupState),
                e.detector.status(e.peer).isAlive(), () -> e.machine.state() == TakeoverState.STABLE
                        && e.machine.handovers().outcome() != TakeoverMachine.Handover.IN_PROGRESS && e.machine.settled()
                        && e.machine.peerStable()).ifPresent(line -> {
                            out.add(line);
                            on(new TakeoverEvent.StandbyRequested(ResourceSet.FOREIGN), out, now, wall);
                        });
    }
}
