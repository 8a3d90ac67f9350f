package org.jheartbeat.core.takeover;

import org.jheartbeat.core.config.NodeName;

/**
 * Why the {@link TakeoverMachine} starts or stops a resource group. Carried by
 * {@link Effect.StartGroup}/{@link Effect.StopGroup} to the group executor and its
 * lifecycle hooks, so work around a start or stop (data replication) decides from this type, not
 * from status strings. The cases follow Heartbeat 3.0.6's resource transitions ({@code hb_resource.c}:
 * {@code req_our_resources}, {@code mach_down} takeover, standby, {@code giveup_resources}).
 */
public enum GroupOpReason {
    /** Start: initial acquisition of this node's own groups while the peer is up (Heartbeat's {@code req_our_resources}). */
    LOCAL_START(true, "local"),
    /** Start: the peer is dead, fenced or shut down, so this node runs the group without it ({@code mach_down}). */
    TAKEOVER(true, "takeover: %s is down"),
    /** Start: taking groups the peer hands over in a standby exchange (hb standby/takeover/failback on the peer). */
    STANDBY_ACQUIRE(true, "standby: taking over from %s"),
    /**
     * Start: the live peer could not start the group (its start failed there, {@code jhb-grpfail}), so
     * this node runs it (docs/design/takeover.md, "Failures"). Like {@link #TAKEOVER} for the data:
     * this node's replica may be older than what the peer last wrote.
     */
    OFFER_ACCEPT(true, "%s could not start it"),
    /** Start again of a running group after a healed partition, to re-assert it (e.g. gratuitous ARP). */
    REANNOUNCE(true, "re-announce after the partition healed"),
    /** Stop: giving the group to the live peer in a standby exchange (hand-over). */
    STANDBY_RELEASE(false, "standby: handing over to %s"),
    /** Stop: this node is shutting down and gives up every group. */
    SHUTDOWN(false, "shutdown"),
    /** Stop: after a healed partition both nodes ran the group; this node lets go of the peer's. */
    PARTITION_RELEASE(false, "release: %s runs it after the partition healed"),
    /** Stop: an operator cleared a group blocked by a failed stop ({@code hb cleanup}); it is stopped once more. */
    CLEANUP(false, "cleanup: stopping a blocked group again"),
    /** Stop: the peer's haresources defines the group differently; neither node runs it until they agree. */
    DISPUTED(false, "defined differently on %s"),
    /** Stop: a configuration reload removed the group from haresources ({@code hb reload}, SIGHUP). */
    REMOVED(false, "removed from haresources by a reload");

    private final boolean start;
    private final String text;

    GroupOpReason(boolean start, String text) {
        this.start = start;
        this.text = text;
    }

    /** Whether this reason starts a group ({@code false}: it stops one). */
    public boolean starts() {
        return start;
    }

    /**
     * Whether a stop for this reason hands the group to a peer that will run it on the data this
     * node leaves behind (when the peer is alive): a standby release or a clean shutdown. A
     * partition release is not: the peer's copy may be the live one.
     */
    public boolean handsOver() {
        return this == STANDBY_RELEASE || this == SHUTDOWN;
    }

    /**
     * The text in parentheses of the log lines {@code Starting resource group X (…)} and
     * {@code Stopping resource group X (…)}.
     *
     * @param peer the other node
     */
    public String describe(NodeName peer) {
        return text.contains("%s") ? String.format(text, peer) : text;
    }
}
