package org.jheartbeat.core.takeover;

/**
 * The peer as the cluster acts on it: the one record of peer liveness that decisions read
 * (peer liveness has one owner). The {@link org.jheartbeat.core.membership.FailureDetector} decides
 * when the peer is heard or dead from beats; the takeover machine turns those decisions, and the
 * peer's own {@code starting}/{@code resource}/{@code shutdown} messages, into exactly one of these
 * values. Nothing else keeps a copy: the protocol engine, {@code hb status} and {@code cl_status
 * rscstatus} ask {@link TakeoverMachine#peerPresence()}.
 *
 * <p>The names follow Heartbeat 3.0.6's view of the other node: it is joining after
 * {@code T_STARTING}, in transition until it reports {@code isstable=1}, dead after deadtime, and
 * gone once it shut down cleanly or was fenced ({@code hb_giveup_resources}, STONITH {@code OK}).
 */
public enum PeerPresence {
    /** Not heard since this node started, and comm is not up yet. */
    UNKNOWN,
    /** Heard: it (re)started ({@code starting}) and has not reported its resources stable since. */
    JOINING,
    /** Heard: its resources are in transition (or it has not said they are stable). */
    IN_FLUX,
    /** Heard: its last {@code resource} message said its resources are settled ({@code isstable=1}). */
    STABLE,
    /** Declared dead while it may still hold resources: fenced, or taken over without STONITH. */
    LOST,
    /** Gone holding nothing: it shut down cleanly, gave up its resources, or was fenced. */
    GONE;

    /** Whether the peer is a live member: {@link #JOINING}, {@link #IN_FLUX} or {@link #STABLE}. */
    public boolean alive() {
        return this == JOINING || this == IN_FLUX || this == STABLE;
    }

    /** Whether the peer was declared dead or left: {@link #LOST} or {@link #GONE}. */
    public boolean departed() {
        return this == LOST || this == GONE;
    }
}
