package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.GroupPlacement;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;

/**
 * {@code jhb-groups} (jheartbeat only): each node tells the other the run state of every one of its
 * resource groups, so that {@code hb status} names the node a group runs on from that node's own
 * account ({@link GroupPlacement}); Heartbeat 3.0.6's {@code rsc_hold} only covers a whole share.
 * <pre>
 *  t=jhb-groups grp_states=running:198.18.0.100/24/eth0,stopped:198.18.0.101    ("-": no group)
 * </pre>
 * Each entry is a {@link GroupState} word, a colon and the group key (the key may hold colons; the
 * word never does), %-escaped as {@link Maintenance#list}. A list longer than {@value #MAX_CHARS}
 * characters is sent as {@value #TOO_MANY}: the receiver then knows no group's state (as with a
 * Heartbeat peer) rather than an old one.
 *
 * <p>Sending: once communication is up, whenever a group's state or the group list changed since the
 * last report to the peer's current generation (also while the peer is taken for dead: across a one-way
 * cut it may hear us), and again to a restarted peer and to one that was unreachable (it may have missed
 * reports). Sequenced like {@code jhb-config}: a lost one is
 * retransmitted; a real Heartbeat peer drops it as an unknown type. Receiving: kept with the peer
 * generation it came from; a report from an older generation says nothing. Not thread-safe: the
 * engine's thread owns it.
 */
public final class GroupReports {
    /** Most characters of {@code grp_states} sent or accepted: 16 KiB, as {@code cfg_groups}. */
    public static final int MAX_CHARS = 16_384;
    /** The {@code grp_states} value sent when the list would be longer than {@link #MAX_CHARS}. */
    public static final String TOO_MANY = "!too-many-groups";

    private List<ResourceGroupDecl> sentGroups = List.of();
    private GroupState[] sentStates = new GroupState[0];
    private Map<String, GroupState> sentLeft = Map.of();
    /** The peer generation our last report went to; -1: none since it was last unreachable. */
    private long sentToGeneration = -1;
    /** The peer's last report, key → state (null: none, or too many groups), and its generation. */
    private Map<String, GroupState> peerStates;
    private long peerGeneration = -1;
    /** The sequence number of the peer's last report kept; -1: unknown. */
    private long peerSeq = -1;

    /**
     * Our report, when one is due.
     *
     * @param groups         our groups, in haresources order
     * @param state          our run state of group {@code i}
     * @param peerGeneration the peer's current generation
     * @param reachable      whether the peer can take it now (comm up, peer alive); when not, the next
     *                       report goes out once it is, whatever changed meanwhile
     * @return the message body to send, or empty
     */
    public Optional<HaMessage> due(List<ResourceGroupDecl> groups, IntFunction<GroupState> state, long peerGeneration,
                                   boolean reachable) {
        return due(groups, state, peerGeneration, reachable, false);
    }

    /**
     * As {@link #due(List, IntFunction, long, boolean)}; {@code onChange}: when the peer is not reachable,
     * a report still goes out when a state changed since the last one sent (comm up here, the peer taken
     * for dead: it may still hear us across a one-way cut, and must not start a group we start), and all
     * again once it is reachable.
     */
    public Optional<HaMessage> due(List<ResourceGroupDecl> groups, IntFunction<GroupState> state, long peerGeneration,
                                   boolean reachable, boolean onChange) {
        return due(groups, state, Map.of(), peerGeneration, reachable, onChange);
    }

    /**
     * As {@link #due(List, IntFunction, long, boolean, boolean)}, the report also listing {@code leftHere}: groups
     * haresources no longer defines that may still run here (a reload's stop under way, a failed one, left in
     * maintenance), by key, after ours.
     */
    public Optional<HaMessage> due(List<ResourceGroupDecl> groups, IntFunction<GroupState> state,
                                   Map<String, GroupState> leftHere, long peerGeneration, boolean reachable,
                                   boolean onChange) {
        GroupState[] now = new GroupState[groups.size()];
        for (int i = 0; i < now.length; i++) {
            now[i] = state.apply(i);
        }
        boolean same = groups.equals(sentGroups) && Arrays.equals(now, sentStates) && leftHere.equals(sentLeft);
        if (!reachable) {
            sentToGeneration = -1;
            if (!onChange || same) {
                return Optional.empty();
            }
            return Optional.of(sent(groups, now, leftHere));
        }
        if (sentToGeneration == peerGeneration && same) {
            return Optional.empty();
        }
        sentToGeneration = peerGeneration;
        return Optional.of(sent(groups, now, leftHere));
    }

    private HaMessage sent(List<ResourceGroupDecl> groups, GroupState[] now, Map<String, GroupState> leftHere) {
        sentGroups = List.copyOf(groups);
        sentStates = now;
        sentLeft = Map.copyOf(leftHere);
        List<String> keys = new ArrayList<>(groups.stream().map(ResourceGroupDecl::key).toList());
        List<GroupState> states = new ArrayList<>(Arrays.asList(now));
        leftHere.forEach((k, v) -> {
            if (!keys.contains(k)) {
                keys.add(k);
                states.add(v);
            }
        });
        return encode(keys, states);
    }

    /** The peer may have missed our reports (it may have declared us dead): the next {@link #due} sends one. */
    public void peerMayHaveMissed() {
        sentToGeneration = -1;
    }

    /**
     * The peer's {@code jhb-groups}: kept for {@code generation}.
     *
     * @return why it is malformed (for the bad-packet count; what was kept before stays), or empty
     */
    public Optional<String> received(HaMessage m, long generation) {
        return received(m, generation, -1);
    }

    /**
     * The peer's {@code jhb-groups} with sequence number {@code seq}: kept for {@code generation} unless a
     * later report of that generation was kept already (a delayed or retransmitted copy is older news).
     *
     * @param seq its sequence number, or -1 when unknown (then it is kept)
     * @return why it is malformed (for the bad-packet count; what was kept before stays), or empty
     */
    public Optional<String> received(HaMessage m, long generation, long seq) {
        if (seq >= 0 && generation == peerGeneration && seq < peerSeq) {
            return Optional.empty();
        }
        Optional<Map<String, GroupState>> d;
        try {
            d = decode(m.get(Field.GROUP_STATES).orElse(null));
        } catch (IllegalArgumentException e) {
            return Optional.of(MessageType.GROUP_STATES.wireName() + ": " + e.getMessage().replaceFirst("^line 1: ", ""));
        }
        peerStates = d.orElse(null);
        peerGeneration = generation;
        peerSeq = seq;
        return Optional.empty();
    }

    /** The sequence number of the peer's last report kept from {@code generation}, or -1 (none, or unknown). */
    public long peerSeq(long generation) {
        return peerGeneration == generation ? peerSeq : -1;
    }

    /**
     * The peer's last report from {@code generation} (its current one), group key → state; null when
     * none came from that generation or its list was too long to send.
     */
    public Map<String, GroupState> peerStates(long generation) {
        return peerGeneration == generation && peerStates != null ? Map.copyOf(peerStates) : null;
    }

    /** What the peer's report from {@code generation} (its current one) says of group {@code key}. */
    public GroupPlacement.PeerReport peerReport(String key, long generation) {
        if (peerStates == null || peerGeneration != generation) {
            return GroupPlacement.PeerReport.NONE;
        }
        GroupState s = peerStates.get(key);
        return s == null ? GroupPlacement.PeerReport.UNDEFINED : new GroupPlacement.PeerReport.Reported(s);
    }

    /**
     * The groups the peer's report from {@code generation} (its current one) says are in one of {@code states}
     * there.
     *
     * @param groups our groups, in haresources order
     * @return their indices in {@code groups}; empty without such a report
     */
    public java.util.Set<Integer> peerHolding(List<ResourceGroupDecl> groups, long generation,
                                              java.util.Set<GroupState> states) {
        java.util.Set<Integer> out = new java.util.TreeSet<>();
        if (peerStates == null || peerGeneration != generation) {
            return out;
        }
        for (int i = 0; i < groups.size(); i++) {
            GroupState s = peerStates.get(groups.get(i).key());
            if (s != null && states.contains(s)) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * The groups the peer's last report from a run before {@code generation} (its current one) says are in
     * one of {@code states}: what a restarted peer's previous run last said it held. A new jheartbeat run
     * may keep some of them running (maintenance survives a restart), so they are not taken for released
     * until the new run's own report says where they run.
     *
     * @param groups our groups, in haresources order
     * @return their indices in {@code groups}; empty when the last report is the current run's, or none came
     */
    public java.util.Set<Integer> previousRunHolding(List<ResourceGroupDecl> groups, long generation,
                                                     java.util.Set<GroupState> states) {
        if (peerGeneration < 0 || peerGeneration == generation) {
            return new java.util.TreeSet<>();
        }
        return peerHolding(groups, peerGeneration, states);
    }

    /** The reported states in which a group may run on the node that reports it. */
    static final java.util.Set<GroupState> HOLDING = java.util.EnumSet.of(GroupState.RUNNING, GroupState.STARTING,
            GroupState.STOPPING, GroupState.BLOCKED);

    /**
     * What a peer restarted as {@code generation} may have left running: the groups it last said run there in
     * maintenance ({@code maintenanceRuns}: its new daemon may have kept them) and what its previous run last
     * reported holding (a maintenance we never heard of may have kept that). Not taken for released until
     * the new run's own report says where they run.
     */
    java.util.Set<Integer> leftByRestartedPeer(List<ResourceGroupDecl> groups, long generation,
                                               java.util.Set<Integer> maintenanceRuns) {
        java.util.Set<Integer> left = new java.util.TreeSet<>(maintenanceRuns);
        left.addAll(previousRunHolding(groups, generation, HOLDING));
        return left;
    }

    /**
     * Whether a frame of the peer sent after its last kept report is missing: a newer report (or the one
     * of a change whose protocol messages were read already) may be among them.
     *
     * @param missing the peer's missing sequence numbers
     */
    boolean peerReportMayBeOld(java.util.SortedSet<Long> missing, long generation) {
        return !missing.isEmpty() && missing.last() > peerSeq(generation);
    }

    /**
     * For each group the peer's report from {@code generation} says something of (by index, in order):
     * whether it may still run there (reported in a state other than stopped or failed).
     */
    java.util.SortedMap<Integer, Boolean> peerMayRun(List<ResourceGroupDecl> groups, long generation) {
        java.util.SortedMap<Integer, Boolean> out = new java.util.TreeMap<>();
        for (int i = 0; i < groups.size(); i++) {
            GroupPlacement.PeerReport r = peerReport(groups.get(i).key(), generation);
            if (!(r instanceof GroupPlacement.PeerReport.None)) {
                out.put(i, r instanceof GroupPlacement.PeerReport.Reported rep && rep.state() != GroupState.STOPPED
                        && rep.state() != GroupState.FAILED);
            }
        }
        return out;
    }

    /** The {@code jhb-groups} body for {@code keys} in {@code states} (same order and size). */
    static HaMessage encode(List<String> keys, List<GroupState> states) {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            entries.add(states.get(i).displayName() + ":" + keys.get(i));
        }
        String v = entries.isEmpty() ? "-" : Maintenance.list(entries);
        return HaMessage.builder().add(Field.TYPE, MessageType.GROUP_STATES.wireName())
                .add(Field.GROUP_STATES, v.length() > MAX_CHARS ? TOO_MANY : v).build();
    }

    /**
     * Reads a {@code grp_states} value; never throws anything but IllegalArgumentException.
     *
     * @return key → state; empty for {@value #TOO_MANY}
     * @throws IllegalArgumentException when absent, longer than {@value #MAX_CHARS}, or with an entry
     *                                  that is not {@code STATE:KEY} or repeats a key
     */
    static Optional<Map<String, GroupState>> decode(String v) {
        if (v == null) {
            throw new IllegalArgumentException("no " + Field.GROUP_STATES.wireName());
        }
        if (v.length() > MAX_CHARS) {
            throw new IllegalArgumentException(Field.GROUP_STATES.wireName() + " longer than " + MAX_CHARS
                    + " characters");
        }
        if (v.equals(TOO_MANY)) {
            return Optional.empty();
        }
        Map<String, GroupState> out = new LinkedHashMap<>();
        if (v.equals("-")) {
            return Optional.of(out);
        }
        for (String entry : Maintenance.parseList(v, 1)) {
            int colon = entry.indexOf(':');
            GroupState s = colon < 0 ? null : stateOf(entry.substring(0, colon));
            String key = colon < 0 ? "" : entry.substring(colon + 1);
            if (s == null || key.isEmpty()) {
                throw new IllegalArgumentException("entry '" + shorten(entry) + "' is not STATE:KEY");
            }
            if (out.put(key, s) != null) {
                throw new IllegalArgumentException("group '" + shorten(key) + "' listed twice");
            }
        }
        return Optional.of(out);
    }

    private static GroupState stateOf(String word) {
        for (GroupState s : GroupState.values()) {
            if (s.displayName().equals(word)) {
                return s;
            }
        }
        return null;
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
