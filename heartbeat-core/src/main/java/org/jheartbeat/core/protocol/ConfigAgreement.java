package org.jheartbeat.core.protocol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDigest;
import org.jheartbeat.core.config.GroupAgreement;
import org.jheartbeat.core.config.GroupDigest;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;

/**
 * Configuration agreement with the peer ({@code jhb-config}): owns the comparison of both nodes'
 * configuration digests ({@link PeerConfigCheck}), the groups the two haresources define differently
 * (disputed: started by neither node, {@link GroupAgreement}), the peer generation our digest was last sent
 * to, and the grace after comm up during which the peer's {@code resource} messages wait for its digest
 * (held back in order, so that groups are negotiated with the disputed ones known). Pure: time and the
 * peer's generation come in as arguments; it appends log lines to the caller's effects and returns the
 * messages to send, the events to feed and the disputed set for the takeover machine, which the engine
 * carries out. Not thread-safe (the engine's thread owns it).
 */
final class ConfigAgreement {
    private final NodeName me;
    private final NodeName peer;
    private final PeerConfigCheck check;
    /** The peer generation our {@code jhb-config} was last sent to (-1, as the tracker's: peer not heard, nothing sent). */
    private long digestSentToGeneration = -1;
    /** Our {@code cfg_groups} value ({@link GroupDigest#encode}). */
    private String localGroupsWire;
    /** The peer's last {@code cfg_groups}, to compare a reloaded haresources with; null when none came. */
    private GroupDigest.PeerGroups peerGroups;
    /** Local groups the peer's haresources defines differently → why. */
    private SortedMap<Integer, String> disputes = new TreeMap<>();
    /** The peer generation whose {@code jhb-config} (good or bad) last arrived; -1 for none. */
    private long heardGeneration = -1;
    /** In NEGOTIATING, the peer's {@code resource} messages wait for its digest until then (monotonic ns). */
    private long graceEndNanos = Long.MIN_VALUE;
    /** The peer's {@code resource} messages held back while waiting for its digest, in order. */
    private final ArrayDeque<TakeoverEvent> heldBack = new ArrayDeque<>();

    /**
     * @param me     this node
     * @param peer   the peer node
     * @param config this node's configuration
     */
    ConfigAgreement(NodeName me, NodeName peer, ClusterConfig config) {
        this.me = me;
        this.peer = peer;
        this.check = new PeerConfigCheck(peer, ConfigDigest.of(config));
        this.localGroupsWire = encode(config.resourceGroups());
    }

    /** The digest comparison (for status and {@code hb config diff}). */
    PeerConfigCheck check() {
        return check;
    }

    /** Why group {@code i} is disputed, or null when it is not. */
    String disputeReason(int i) {
        return disputes.get(i);
    }

    /** The disputed groups' indices (a live view of the current set). */
    Set<Integer> disputed() {
        return disputes.keySet();
    }

    /**
     * Our {@code jhb-config} unless peer generation {@code peerGen} already has it (after comm up, and to a
     * restarted peer: its {@code starting} or its own digest); recorded as sent. A real Heartbeat peer ignores it.
     */
    Optional<HaMessage> digestToSend(long peerGen) {
        if (digestSentToGeneration == peerGen) {
            return Optional.empty();
        }
        digestSentToGeneration = peerGen;
        ConfigDigest d = check.local();
        return Optional.of(HaMessage.builder().add(Field.TYPE, MessageType.CONFIG_DIGEST.wireName())
                .add(Field.CONFIG_HARESOURCES, d.haresources())
                .add(Field.CONFIG_AUTHKEYS, d.authkeys())
                .add(Field.CONFIG_HA_CF, d.haCf())
                .add(Field.CONFIG_GROUPS, localGroupsWire).build());
    }

    /** Our digest changed (a reload): it goes again to the peer generation that had it. */
    void resendDigest() {
        digestSentToGeneration = -1;
    }

    /** Comm came up at {@code now}: the peer's digest is awaited for {@code graceNanos}. */
    void commUp(long now, long graceNanos) {
        graceEndNanos = now + graceNanos;
    }

    /**
     * The peer's {@code jhb-config} arrived from generation {@code peerGen}: compared with ours (the line
     * to log, if any, goes to {@code out}), and the disputed groups computed again.
     *
     * @return the new disputed set when it changed (for {@link TakeoverEvent.GroupsDisputed}), else empty
     */
    Optional<Set<Integer>> received(HaMessage m, long peerGen, List<ResourceGroupDecl> groups, List<Effect> out) {
        ConfigDigest d = ConfigDigest.parse(m.get(Field.CONFIG_HARESOURCES).orElse(null),
                m.get(Field.CONFIG_AUTHKEYS).orElse(null), m.get(Field.CONFIG_HA_CF).orElse(null));
        heardGeneration = peerGen;
        String type = MessageType.CONFIG_DIGEST.wireName();
        if (d == null) {
            out.add(new Effect.LogLine(Level.WARN, "malformed " + type + " message from " + peer + "; ignored"));
            return Optional.empty();
        }
        check.received(peerGen, d).ifPresent(out::add);
        GroupDigest.PeerGroups theirs = m.get(Field.CONFIG_GROUPS).map(GroupDigest::decode).orElse(null);
        peerGroups = theirs;
        if (theirs instanceof GroupDigest.PeerGroups.Unreadable) {
            out.add(new Effect.LogLine(Level.WARN, "unreadable " + Field.CONFIG_GROUPS.wireName() + " in "
                    + type + " message from " + peer));
        }
        return takeDisputes(GroupAgreement.disputed(me, groups, peer, theirs,
                !d.haresources().equals(check.local().haresources())), groups, out);
    }

    /** The group list changed: the disputes are re-indexed by key (groups gone are dropped). */
    void regrouped(List<ResourceGroupDecl> before, ToIntFunction<String> groupIndex) {
        SortedMap<Integer, String> remapped = new TreeMap<>();
        for (var e : disputes.entrySet()) {
            int j = groupIndex.applyAsInt(before.get(e.getKey()).key());
            if (j >= 0) {
                remapped.put(j, e.getValue());
            }
        }
        disputes = remapped;
    }

    /**
     * A reload to {@code applied}: our digest and group list change, and the disputes are computed again
     * against the peer's last group list when its current generation sent a digest.
     *
     * @return the new disputed set when it changed, else empty
     */
    Optional<Set<Integer>> reloaded(ClusterConfig applied, long peerGen, List<Effect> out) {
        localGroupsWire = encode(applied.resourceGroups());
        ConfigDigest digest = ConfigDigest.of(applied);
        check.reloaded(digest, peerGen).ifPresent(out::add);
        Optional<ConfigDigest> theirs = check.peerDigest(peerGen);
        if (theirs.isEmpty()) {
            return Optional.empty();
        }
        return takeDisputes(GroupAgreement.disputed(me, applied.resourceGroups(), peer, peerGroups,
                !theirs.get().haresources().equals(digest.haresources())), applied.resourceGroups(), out);
    }

    /**
     * Whether the peer is a Heartbeat 3.0.6 node: communication came up with its current generation and
     * the grace for its {@code jhb-config} passed without one (a jheartbeat peer sends it with its
     * {@code starting}, or to a restarted peer). Unknown (no comm up yet) counts as a jheartbeat peer.
     */
    boolean peerIsHeartbeat306(long now, long peerGen) {
        return graceEndNanos != Long.MIN_VALUE && now >= graceEndNanos && heardGeneration != peerGen;
    }

    /**
     * What to feed the machine for {@code event} (null: none), in order: nothing when it is a
     * {@code resource} message from the peer while negotiating and the peer's {@code jhb-config} has not
     * arrived within the grace after comm up (it is held back); otherwise what is held back first (except
     * for a tick while still waiting), then the event.
     *
     * @param negotiating the machine is negotiating
     */
    List<TakeoverEvent> admit(TakeoverEvent event, boolean negotiating, long now, long peerGen) {
        boolean waiting = negotiating && heardGeneration != peerGen && now < graceEndNanos;
        if (waiting && event instanceof TakeoverEvent.PeerResources) {
            heldBack.addLast(event);
            return List.of();
        }
        List<TakeoverEvent> due = new ArrayList<>();
        if (!waiting || !(event instanceof TakeoverEvent.Tick)) {
            due.addAll(heldBack);
            heldBack.clear();
        }
        if (event != null) {
            due.add(event);
        }
        return due;
    }

    /** The INFO line when messages are held back and the grace ended without the peer's digest; empty otherwise. */
    Optional<Effect.LogLine> graceEnded(long now, long graceNanos) {
        if (heldBack.isEmpty() || now < graceEndNanos) {
            return Optional.empty();
        }
        return Optional.of(new Effect.LogLine(Level.INFO, "No configuration digest from " + peer + " within "
                + graceNanos / 1_000_000 + " ms of comm up (a Heartbeat 3.0.6 peer?); negotiating resources without"
                + " comparing haresources."));
    }

    /**
     * Takes the newly computed disputed groups: a CRIT line for each group newly disputed (or for
     * another reason), an INFO line for each no longer disputed.
     *
     * @return the new set when it changed, else empty
     */
    private Optional<Set<Integer>> takeDisputes(SortedMap<Integer, String> now, List<ResourceGroupDecl> groups,
                                                List<Effect> out) {
        String both = me.compareTo(peer) < 0 ? me + " and " + peer : peer + " and " + me;
        for (var e : now.entrySet()) {
            if (!e.getValue().equals(disputes.get(e.getKey()))) {
                out.add(new Effect.LogLine(Level.CRIT, "Resource group " + groups.get(e.getKey()).key()
                        + " is defined differently on " + both + " (" + e.getValue()
                        + "): started by neither node until haresources agree"));
            }
        }
        for (int g : disputes.keySet()) {
            if (!now.containsKey(g)) {
                out.add(new Effect.LogLine(Level.INFO, "Resource group " + groups.get(g).key()
                        + " is defined the same on " + both + " now; it is no longer held back."));
            }
        }
        boolean changed = !disputes.keySet().equals(now.keySet());
        disputes = now;
        return changed ? Optional.of(now.keySet()) : Optional.empty();
    }

    private static String encode(List<ResourceGroupDecl> groups) {
        return GroupDigest.encode(groups.stream().map(GroupDigest::of).toList());
    }
}
