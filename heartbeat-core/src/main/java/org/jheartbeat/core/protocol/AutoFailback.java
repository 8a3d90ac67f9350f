package org.jheartbeat.core.protocol;

import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.PeerPresence;
import org.jheartbeat.core.takeover.ResourceSet;

/**
 * Heartbeat's auto_failback ({@code PerformAutoFailback}), the engine's part: owns whether a failback is owed
 * to the peer, and decides when the owed standby for {@code foreign} is asked. Whether the peer is joining is
 * not kept here: the machine's {@link PeerPresence} is its one record (it sent {@code starting}: when it next
 * reports itself stable, presence going from {@link PeerPresence#JOINING} to {@link PeerPresence#STABLE}, it
 * has (re)joined). Pure: the machine's and the detector's views come in as arguments; it returns the line to
 * log, and the engine asks the machine for the standby ({@link ResourceSet#FOREIGN}). Not thread-safe (the
 * engine's thread owns it).
 *
 * <p>Once a (re)joined peer is stable, a node whose bits include {@code foreign} goes standby for
 * {@code foreign}, even when no group of the peer's exists, so that both nodes' {@code rsc_hold} end up as
 * Heartbeat's ({@code local} on both). When there are foreign groups to give back the takeover machine
 * starts that standby itself; this covers the case where it sees nothing to give. Waits (checked every
 * tick) while either side is in flux, as Heartbeat's "Auto failback delayed." does, and while a standby is
 * in progress: a failback standby the peer ignored ("local resources in flux") and that was cancelled for
 * want of a reply is asked again once both nodes are stable, where Heartbeat 3.0.6 gives up for good and
 * leaves the peer's groups here. An operator's {@code hb standby}/{@code hb takeover} ends what is owed.
 *
 * <p>After {@code hb cleanup} (here, or the peer's {@code jhb-grpfail clear}): a group the peer prefers
 * runs here because it failed there; once no such group has a failure left on the peer, they go back as
 * when the peer joins (Pacemaker, with the stickiness of 0 that {@code auto_failback on} exports to, moves a
 * resource back to its preferred node once its failure there is cleared). Heartbeat 3.0.6 fails back only
 * when a node joins; without this, a cleared group stayed on this node until the peer restarted or
 * {@code hb failback}.
 */
final class AutoFailback {
    private final NodeName peer;
    /**
     * auto_failback is owed to a (re)joined peer: the machine saw no group to give back, or its failback
     * standby is still in progress (it may be cancelled unanswered, by a peer in flux).
     */
    private boolean due;

    /** @param peer the peer node, for log lines */
    AutoFailback(NodeName peer) {
        this.peer = peer;
    }

    /** The peer sent {@code starting}: it is joining, and nothing is owed until it has joined. */
    void peerStarting() {
        due = false;
    }

    /** The operator places the groups now ({@code hb standby}, {@code hb takeover}): nothing is owed. */
    void operatorPlaces() {
        due = false;
    }

    /**
     * The machine took an event: the peer has (re)joined when its presence went from
     * {@link PeerPresence#JOINING} to {@link PeerPresence#STABLE} (its first stable {@code resource} report
     * since its {@code starting}).
     *
     * @param before       the machine's peer presence before the event
     * @param after        its peer presence after it
     * @param autoFailback auto_failback is not off
     * @return true when the peer joined: check {@link #standbyDue} now
     */
    boolean peerJoined(PeerPresence before, PeerPresence after, boolean autoFailback) {
        if (before != PeerPresence.JOINING || after != PeerPresence.STABLE) {
            return false;
        }
        due = autoFailback;
        return true;
    }

    /**
     * After a cleanup: whether a failback is now owed, i.e. a group the peer prefers runs here and no such
     * group has a failure left on the peer. Records it as owed: check {@link #standbyDue} now.
     *
     * @param groups     the haresources groups
     * @param state      a group's state here, by index
     * @param peerFailed whether a group, by index, has a failure on the peer
     */
    boolean cleanupCleared(List<ResourceGroupDecl> groups, IntFunction<GroupState> state, IntPredicate peerFailed) {
        boolean peersGroupHere = false;
        for (int i = 0; i < groups.size(); i++) {
            if (groups.get(i).preferredNode().equals(peer) && state.apply(i) == GroupState.RUNNING) {
                if (peerFailed.test(i)) {
                    return false;
                }
                peersGroupHere = true;
            }
        }
        if (peersGroupHere) {
            due = true;
        }
        return peersGroupHere;
    }

    /**
     * Whether the owed failback is asked now: when nothing is left to give back (no {@code foreign} bit and no
     * group of the peer's runs here) or the peer is not alive, it is no longer owed; while either side is in
     * flux it waits.
     *
     * @param holdsPeers the {@code foreign} bit is held, or a group the peer prefers runs here
     * @param stable     both nodes are stable, settled, and no standby exchange is in progress
     * @return the line to log when the standby for {@code foreign} is to be asked now
     */
    Optional<Effect.LogLine> standbyDue(BooleanSupplier holdsPeers, boolean peerAlive, BooleanSupplier stable) {
        if (!due) {
            return Optional.empty();
        }
        if (!holdsPeers.getAsBoolean() || !peerAlive) {
            due = false;
            return Optional.empty();
        }
        if (!stable.getAsBoolean()) {
            return Optional.empty();
        }
        due = false;
        return Optional.of(new Effect.LogLine(Level.INFO, "auto_failback: handing " + peer
                + " back its share [foreign]"));
    }

    /**
     * Whether a group the peer prefers runs here. {@code rsc_hold} says so after a takeover from a dead
     * peer, not after this node took a group the peer could not run (a failure offer): that one is found here.
     */
    static boolean runsAGroupOf(NodeName node, List<ResourceGroupDecl> groups, IntFunction<GroupState> state) {
        for (int i = 0; i < groups.size(); i++) {
            if (groups.get(i).preferredNode().equals(node) && state.apply(i) == GroupState.RUNNING) {
                return true;
            }
        }
        return false;
    }
}
