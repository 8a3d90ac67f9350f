package org.jheartbeat.core.takeover;

import java.util.Objects;
import org.jheartbeat.core.config.NodeName;

/**
 * Where {@code hb status} says one resource group runs, from what each node says of itself (pure).
 * The rule: a group is shown on a node only while that node holds it by its own account, or with the
 * transition it is in; what nobody confirms is never shown as a place.
 *
 * <ul>
 *   <li><b>Here</b>: this node's own run state. {@code running}, {@code starting}, {@code stopping}
 *       and {@code blocked} (a failed stop: it may still run) are on this node; the state is shown
 *       next to it ({@code here starting}).</li>
 *   <li><b>The peer, by its own report</b> ({@code jhb-groups}, sent by a jheartbeat peer whenever
 *       one of its groups changes state): the same states are on the peer, {@code starting} and
 *       {@code stopping} with a note saying so; {@code stopped} and {@code failed} are nowhere; a key
 *       missing from its report is a group its haresources does not define: nowhere.</li>
 *   <li><b>The peer without a report</b> (a Heartbeat 3.0.6 peer sends none; a jheartbeat peer's may
 *       not have arrived yet): its {@code rsc_hold} covers its whole share, not each group (Heartbeat
 *       3.0.6 says {@code local} whether or not each start worked, and knows nothing of a group only
 *       our haresources has). So the peer is only named as <em>unconfirmed</em>, and not even that
 *       for a disputed group (neither node starts it) or one the peer reported failing
 *       ({@code jhb-grpfail}).</li>
 *   <li>A peer that is not alive holds nothing we can see: nowhere, unless this node runs it.</li>
 * </ul>
 */
public final class GroupPlacement {
    /** The {@code runningOn} of a group that runs on no node. */
    public static final String NOWHERE = "-";

    private GroupPlacement() {
    }

    /** What the peer's own per-group report ({@code jhb-groups}) says of one group. */
    public sealed interface PeerReport {
        /** No report from the peer's current run: a Heartbeat 3.0.6 peer, an older jheartbeat, or not arrived yet. */
        PeerReport NONE = new None();
        /** The peer's report lists no group with this key: its haresources does not define it. */
        PeerReport UNDEFINED = new Undefined();

        /** See {@link #NONE}. */
        record None() implements PeerReport { }

        /** See {@link #UNDEFINED}. */
        record Undefined() implements PeerReport { }

        /** The group's run state on the peer, as the peer last reported it. */
        record Reported(GroupState state) implements PeerReport {
            public Reported {
                Objects.requireNonNull(state, "state");
            }
        }
    }

    /**
     * What this node knows of one group.
     *
     * @param me              this node
     * @param peer            the other node
     * @param here            the group's run state here
     * @param peerAlive       whether the peer is a live member ({@link PeerPresence#alive()})
     * @param report          what the peer's own report says of the group
     * @param peerHolds       the peer's {@code rsc_hold}, relative to the peer
     * @param preferredByPeer whether the group's preferred node is the peer (then the peer's {@code local}
     *                        share covers it, else its {@code foreign} share)
     * @param peerFailed      whether the peer reported a failed start or stop of it ({@code jhb-grpfail})
     * @param disputed        whether the two haresources define it differently (started by neither node)
     */
    public record Facts(NodeName me, NodeName peer, GroupState here, boolean peerAlive, PeerReport report,
                        ResourceSet peerHolds, boolean preferredByPeer, boolean peerFailed, boolean disputed) {
        public Facts {
            Objects.requireNonNull(me, "me");
            Objects.requireNonNull(peer, "peer");
            Objects.requireNonNull(here, "here");
            Objects.requireNonNull(report, "report");
            Objects.requireNonNull(peerHolds, "peerHolds");
        }
    }

    /**
     * Where the group is shown.
     *
     * @param runningOn   the node that holds it by its own account, or {@value #NOWHERE}
     * @param unconfirmed a node that may hold it by a coarse report only (the peer's {@code rsc_hold}),
     *                    or null; never set together with a {@code runningOn} other than {@value #NOWHERE}
     * @param note        what the place alone does not say (a transition, why it is nowhere, why it is
     *                    not confirmed), in words; or null
     */
    public record Placement(String runningOn, String unconfirmed, String note) {
        public Placement {
            Objects.requireNonNull(runningOn, "runningOn");
            if (unconfirmed != null && !runningOn.equals(NOWHERE)) {
                throw new IllegalArgumentException("a confirmed place and an unconfirmed one: " + runningOn + ", "
                        + unconfirmed);
            }
        }
    }

    /** Where {@code f}'s group is shown; see the class comment for the rule. */
    public static Placement decide(Facts f) {
        String me = f.me().value();
        String peer = f.peer().value();
        GroupState there = f.report() instanceof PeerReport.Reported r ? r.state() : null;
        if (holds(f.here())) {
            return new Placement(me, null, f.peerAlive() && holds(there)
                    ? peer + " reports it " + there + " there too" : null);
        }
        if (!f.peerAlive()) {
            return new Placement(NOWHERE, null, null);
        }
        if (there != null) {
            return switch (there) {
                case RUNNING -> new Placement(peer, null, null);
                case STARTING -> new Placement(peer, null, "starting on " + peer);
                case STOPPING -> new Placement(peer, null, "stopping on " + peer);
                case BLOCKED -> new Placement(peer, null, "its stop failed on " + peer + ": it may still run there");
                case FAILED -> new Placement(NOWHERE, null, "failed on " + peer);
                case STOPPED -> new Placement(NOWHERE, null, null);
            };
        }
        if (f.report() instanceof PeerReport.Undefined) {
            return new Placement(NOWHERE, null, peer + " does not define it (not in its haresources)");
        }
        if (f.disputed()) {
            return new Placement(NOWHERE, null, null);
        }
        if (f.peerFailed()) {
            return new Placement(NOWHERE, null, "unknown on " + peer + ": it reported a failure of this group and"
                    + " sends no per-group state");
        }
        boolean share = f.preferredByPeer() ? f.peerHolds().includesLocal() : f.peerHolds().includesForeign();
        if (share) {
            return new Placement(NOWHERE, peer, "not confirmed: " + peer + " reports holding "
                    + (f.preferredByPeer() ? "its own groups" : me + "'s groups") + " (rsc_hold "
                    + f.peerHolds().wireName() + "), not which of them run");
        }
        return new Placement(NOWHERE, null, null);
    }

    /** Whether a node in run state {@code s} holds the group, wholly or in part (null: unknown). */
    private static boolean holds(GroupState s) {
        return s == GroupState.RUNNING || s == GroupState.STARTING || s == GroupState.STOPPING
                || s == GroupState.BLOCKED;
    }
}
