package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Announcement;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.wire.HaMessage;

/**
 * The engine's side of maintenance coordination ({@code hb maintenance}, {@code jhb-maint}): owns what the
 * peer last said runs on it in maintenance, the probe we last answered for it, and the peer generation our
 * setting was last sent to; decides what a {@code jhb-maint set} from the peer does (the newer setting
 * wins: ours is sent back, or theirs is applied, directly or after a probe of the groups leaving
 * maintenance) and builds the {@code jhb-maint} messages ({@link MaintenanceMessages}). Pure: it reads the
 * machine's setting through arguments, appends log lines and effects to the caller's list and returns
 * the messages to send and the setting to apply, which the engine carries out. Group sets are indices into
 * the haresources groups of the caller's current configuration. Not thread-safe (the engine's thread owns it).
 */
final class MaintenanceCoordination {
    private final NodeName peer;
    /** The peer generation our maintenance setting ({@code jhb-maint set}) was last sent to; -1: none. */
    private long sentToGeneration = -1;
    /** Groups the peer last said run on it ({@code jhb-maint}), by index; for status during maintenance. */
    private Set<Integer> peerRuns = Set.of();
    /** Our last probe answered to the peer: [groups running fully here, partly]; null before any. */
    private List<Set<Integer>> lastProbeForPeer;

    /**
     * A maintenance setting to apply ({@code NodeEngine#onMaintenanceApplied}'s arguments, without announcing it).
     *
     * @param next     the new setting
     * @param probed   groups leaving maintenance, probed just now
     * @param runsHere of those, the ones running here (every resource)
     * @param partly   of those, the ones running partly here
     * @param runsPeer groups running on the peer
     */
    record Apply(Maintenance next, Set<Integer> probed, Set<Integer> runsHere, Set<Integer> partly,
                 Set<Integer> runsPeer) { }

    /** @param peer the peer node, for log lines */
    MaintenanceCoordination(NodeName peer) {
        this.peer = peer;
    }

    /** Groups the peer last reported running on it in a {@code jhb-maint}. */
    Set<Integer> peerRuns() {
        return peerRuns;
    }

    /** The peer was powered off: what it ran in maintenance is gone. */
    void peerFenced() {
        peerRuns = Set.of();
    }

    /**
     * The peer's {@code jhb-maint set}: records what runs there and decides whose setting wins.
     *
     * @param set          the decoded message
     * @param cur          the machine's current setting
     * @param leavingFor   the groups a setting takes out of maintenance ({@code MaintenancePolicy#leaving})
     * @param groupIndex   a group's index by key, -1 for none
     * @param peerGen      the peer's current generation
     * @param runningKeys  the keys of the groups running here, for a setting sent back
     * @param out          receives log lines and {@link Effect.ProbeThenApply}
     * @param send         sends a message to the peer
     * @return the peer's setting to apply now; empty when ours wins or a probe comes first
     */
    Optional<Apply> onSet(MaintenanceMessages.Decoded.Set set, Maintenance cur,
                          Function<Maintenance, Set<Integer>> leavingFor, ToIntFunction<String> groupIndex,
                          long peerGen, Supplier<List<String>> runningKeys, List<Effect> out,
                          java.util.function.Consumer<HaMessage> send) {
        Set<Integer> runs = indices(set.runs(), groupIndex);
        peerRuns = runs;
        Maintenance win = Maintenance.newer(cur, set.setting());
        if (win.equals(cur)) {
            if (!cur.equals(set.setting())) {
                log(out, Level.INFO, peer + " has an older maintenance setting (" + set.setting().describe()
                        + ", version " + set.setting().version() + "); sending ours (" + cur.describe() + ")");
                sentToGeneration = -1;
                settingToSend(cur, peerGen, runningKeys).ifPresent(send);
            }
            if (cur.any() && !set.runs().isEmpty()) {
                log(out, Level.INFO, "Maintenance: " + peer + " runs " + String.join(", ", set.runs()));
            }
            return Optional.empty();
        }
        log(out, Level.INFO, "Maintenance setting from " + peer + ": " + win.describe() + " (version "
                + win.version() + ")");
        Set<Integer> leaving = leavingFor.apply(win);
        if (leaving.isEmpty()) {
            return Optional.of(new Apply(win, Set.of(), Set.of(), Set.of(), runs));
        } else if (set.yours().isPresent() && lastProbeForPeer != null) {
            // the peer decided from the probe we just answered: use it (it tells partly from fully)
            Set<Integer> here = new TreeSet<>(lastProbeForPeer.get(0));
            here.retainAll(leaving);
            Set<Integer> partly = new TreeSet<>(lastProbeForPeer.get(1));
            partly.retainAll(leaving);
            return Optional.of(new Apply(win, leaving, here, partly, runs));
        }
        out.add(new Effect.ProbeThenApply(win, leaving, runs));
        return Optional.empty();
    }

    /**
     * Our setting for a peer generation that has not had it (comm up, a restarted peer); empty when it
     * has, or when maintenance was never set (version 0). Recorded as sent.
     */
    Optional<HaMessage> settingToSend(Maintenance cur, long peerGen, Supplier<List<String>> runningKeys) {
        if (cur.version() == 0 || sentToGeneration == peerGen) {
            return Optional.empty();
        }
        sentToGeneration = peerGen;
        return Optional.of(MaintenanceMessages.set(cur, runningKeys.get(), Optional.empty()));
    }

    /**
     * An operator's setting applied here, for the peer: {@code jhb-maint set} with what runs here and, for a
     * probe exchange ({@code probed} not empty), what its probe found there. Recorded as sent.
     */
    HaMessage announcement(Maintenance next, Set<Integer> probed, Set<Integer> runsPeer, List<ResourceGroupDecl> groups,
                           List<String> runningKeys, long peerGen) {
        List<String> yours = new ArrayList<>();
        runsPeer.forEach(i -> yours.add(groups.get(i).key()));
        HaMessage m = MaintenanceMessages.set(next, runningKeys, probed.isEmpty() ? Optional.empty() : Optional.of(yours));
        sentToGeneration = peerGen;
        return m;
    }

    /**
     * Our probe for the peer's request {@code request} ended: {@code fully} and {@code partly} are the
     * groups running here (every resource, some). Kept: the peer's {@code set} that follows decides from it.
     *
     * @param leftRunning groups removed from haresources but left running here (not probed)
     * @return the {@code jhb-maint runs} answer
     */
    HaMessage probedForPeer(long request, Set<Integer> fully, Set<Integer> partly, List<ResourceGroupDecl> groups,
                            Collection<String> leftRunning) {
        lastProbeForPeer = List.of(Set.copyOf(fully), Set.copyOf(partly));
        Set<Integer> runs = new TreeSet<>(fully);
        runs.addAll(partly);
        List<String> keys = new ArrayList<>();
        runs.forEach(i -> keys.add(groups.get(i).key()));
        keys.addAll(leftRunning); // not in haresources, so not probed, but left running here
        return MaintenanceMessages.runs(request, keys);
    }

    /**
     * What goes out just before our announcement {@code a}: before a {@code shutdone}, while groups run here in
     * maintenance, our setting with them ({@code jhb-maint set}), so that the peer does not take the shutdone
     * for "gave up" those; otherwise nothing.
     *
     * @param running the keys of the groups running here (asked only before a shutdone in maintenance)
     */
    static Optional<HaMessage> beforeAnnouncement(Announcement a, Maintenance setting,
                                                  Supplier<List<String>> running) {
        if (!(a instanceof Announcement.ShutDone) || !setting.any()) {
            return Optional.empty();
        }
        List<String> keys = running.get();
        return keys.isEmpty() ? Optional.empty() : Optional.of(MaintenanceMessages.set(setting, keys, Optional.empty()));
    }

    /** The peer shut down: the WARN naming what it left running in maintenance, if anything. */
    Optional<Effect.LogLine> leftRunningAtShutdown(List<ResourceGroupDecl> groups) {
        if (peerRuns.isEmpty()) {
            return Optional.empty();
        }
        List<String> left = new ArrayList<>();
        peerRuns.forEach(i -> left.add(groups.get(i).key()));
        return Optional.of(new Effect.LogLine(Level.WARN, peer + " shut down leaving resource groups in maintenance"
                + " running there: " + String.join(", ", left) + "; not taken over, and not started here by 'hb"
                + " maintenance off' until " + peer + " is back"));
    }

    /**
     * The group list changed: what the peer last said runs there is re-indexed by key (groups gone are
     * dropped), and our last probe for it, indices into the old list, is forgotten.
     */
    void regrouped(List<ResourceGroupDecl> before, ToIntFunction<String> groupIndex) {
        Set<Integer> now = new TreeSet<>();
        peerRuns.forEach(i -> {
            int j = groupIndex.applyAsInt(before.get(i).key());
            if (j >= 0) {
                now.add(j);
            }
        });
        peerRuns = now;
        lastProbeForPeer = null;
    }

    private static Set<Integer> indices(Collection<String> keys, ToIntFunction<String> groupIndex) {
        Set<Integer> out = new TreeSet<>();
        for (String k : keys) {
            int i = groupIndex.applyAsInt(k);
            if (i >= 0) {
                out.add(i);
            }
        }
        return out;
    }

    private static void log(List<Effect> out, Level level, String text) {
        out.add(new Effect.LogLine(level, text));
    }
}
