package org.jheartbeat.core.takeover;

import org.jheartbeat.core.config.NodeName;

/**
 * The FENCING sub-state of the {@link TakeoverMachine} and its settings: whether a STONITH device is
 * configured, the fencing race (jheartbeat.yaml {@code stonith.fence_delay}, modelled on Pacemaker's
 * {@code priority-fencing-delay}; Heartbeat 3.0.6 fences at once), whether the fence is still waiting
 * out that delay (nothing sent to the device: cancellable), the state the fence interrupted, what the
 * peer held before the death the fence is for, the attempts so far and the one-line status for
 * {@code hb status}. The machine owns the transitions (state, deadlines, effects); this class keeps the
 * bookkeeping and the pure race rule (docs/design/stonith.md, "Fence delay"). Mutable, owned by the
 * machine's thread.
 */
final class Fencing {
    /** Whether a STONITH device is configured for this node. */
    private final boolean configured;
    /** Whether the peer comes before this node in ha.cf's {@code node} lines (the race's tie-break). */
    private final boolean peerFirstInHaCf;
    /** How long the loser of the fencing race waits before fencing a lost peer, ns; 0: never waits. */
    private final long delayNanos;
    /** Fence a peer that may hold groups before taking them over (off only in tests proving the rule). */
    private final boolean beforeTakeover;
    /** The peer is a Heartbeat 3.0.6 node: it fences at once, so in a fencing race this node always waits. */
    private boolean peerNeverDelays;
    /** In FENCING, waiting out {@link #delayNanos}: no FencePeer emitted yet, so still cancellable. */
    private boolean delayed;
    /** The state the fence (delayed or not) interrupted: NEGOTIATING and AWAITING_COMM resume if it is called off. */
    private TakeoverState stateBefore = TakeoverState.STABLE;
    /** What the peer held before the death the delayed fence is for: still held if it returns in the delay. */
    private ResourceSet peerHoldsBeforeDelay = ResourceSet.NONE;
    private int attempts;
    private String status;
    /** The peer was heard with a new generation while we were fencing it: a late confirmation takes nothing. */
    private boolean peerRestarted;

    /** @param settings the device, the ha.cf order, the fence delay and whether to fence before a takeover */
    Fencing(TakeoverSettings settings) {
        this.configured = settings.fencing();
        this.peerFirstInHaCf = settings.peerFirstInHaCf();
        this.delayNanos = settings.fenceDelayNanos();
        this.beforeTakeover = settings.fenceBeforeTakeover();
        this.status = configured ? "ready (nothing fenced yet)" : "no STONITH device configured";
    }

    /** Whether a STONITH device is configured. */
    boolean configured() {
        return configured;
    }

    /** Whether a lost peer that may hold groups is fenced before they are taken over. */
    boolean fencesBeforeTakeover() {
        return configured && beforeTakeover;
    }

    /** Whether the dead peer is a Heartbeat 3.0.6 node, as the last {@link TakeoverEvent.PeerDead} said. */
    void peerNeverDelays(boolean heartbeatPeer) {
        this.peerNeverDelays = heartbeatPeer;
    }

    /** The fence delay, ns. */
    long delayNanos() {
        return delayNanos;
    }

    /**
     * The fencing race of a two-node cut: whether this node waits out the delay before fencing. It waits
     * when a delay is set, the peer fences it too ({@code peerFencesUs}), and it lost: the peer holds more
     * groups, or as many and comes first in ha.cf, or the peer is a Heartbeat 3.0.6 node (which never
     * waits, so only this node's wait can keep one node alive).
     */
    boolean weWait(int peerWeight, int ourWeight, boolean peerFencesUs) {
        boolean lost = peerNeverDelays || peerWeight > ourWeight || peerWeight == ourWeight && peerFirstInHaCf;
        return delayNanos > 0 && peerFencesUs && lost;
    }

    /**
     * Enters the delay: nothing is sent to the device until it ends.
     *
     * @param from the state the fence interrupts
     * @return the log line saying why this node waits
     */
    String startDelay(TakeoverState from, NodeName peer, int peerWeight, int ourWeight) {
        stateBefore = from;
        delayed = true;
        attempts = 0;
        String delay = describeNanos(delayNanos);
        String why = peerNeverDelays
                ? "it is a Heartbeat 3.0.6 node, which fences at once without a delay"
                : "it holds " + peerWeight + " resource group(s), we hold " + ourWeight
                + (peerWeight == ourWeight ? ", and it comes first in ha.cf" : "");
        status = "fence of " + peer + " delayed for " + delay + " (" + why + ")";
        return "Delaying STONITH of " + peer + " by " + delay + ": " + why
                + " (jheartbeat.yaml stonith.fence_delay); the node that holds more fences first.";
    }

    /** The first attempt at the device; {@code from} is kept as the interrupted state unless it is FENCING. */
    void startAttempts(TakeoverState from, NodeName peer) {
        if (from != TakeoverState.FENCING) {
            stateBefore = from;
        }
        delayed = false;
        attempts = 1;
        status = "fencing " + peer + " (attempt 1)";
    }

    /** One more attempt after a failed one. */
    void retry(NodeName peer) {
        attempts++;
        status = "fencing " + peer + " (attempt " + attempts + ")";
    }

    /** The device confirmed the fence. */
    void fenced(NodeName peer, String detail) {
        status = peer + " fenced after " + attempts + " attempt(s): " + detail;
    }

    /** The device failed; the machine retries every {@code retryNanos}. */
    void failed(NodeName peer, String detail, long retryNanos) {
        status = "fencing " + peer + " failed " + attempts + " time(s), retrying every "
                + retryNanos / 1_000_000_000L + " s; last: " + detail;
    }

    /** Ends the delay without fencing: {@code why} becomes the status. */
    void callOffDelay(String why) {
        delayed = false;
        status = why;
    }

    /** Sets the status line ({@code hb status}). */
    void status(String line) {
        status = line;
    }

    /** One line about fencing for {@code hb status}. */
    String status() {
        return status;
    }

    /** Whether the fence waits out the delay (nothing sent to the device yet). */
    boolean delayed() {
        return delayed;
    }

    /** The state the fence interrupted. */
    TakeoverState stateBefore() {
        return stateBefore;
    }

    /** The state to go back to when the fence is called off: a negotiation starts over, anything else is STABLE. */
    TakeoverState resumeState() {
        return stateBefore == TakeoverState.NEGOTIATING || stateBefore == TakeoverState.AWAITING_COMM
                ? stateBefore : TakeoverState.STABLE;
    }

    /** Remembers what the peer held before the death a fence may be for. */
    void peerHoldsBeforeDelay(ResourceSet held) {
        peerHoldsBeforeDelay = held;
    }

    /** What the peer held before the death the delayed fence was for. */
    ResourceSet peerHoldsBeforeDelay() {
        return peerHoldsBeforeDelay;
    }

    /** Whether the peer was heard restarted since the fence was asked for. */
    boolean peerRestarted() {
        return peerRestarted;
    }

    /** See {@link #peerRestarted()}. */
    void peerRestarted(boolean restarted) {
        peerRestarted = restarted;
    }

    /** {@code 5 s}, {@code 1.5 s}, {@code 250 ms}: a delay for log lines. */
    static String describeNanos(long nanos) {
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + " s";
        }
        if (nanos >= 1_000_000_000L && nanos % 100_000_000L == 0) {
            return nanos / 1_000_000_000L + "." + nanos % 1_000_000_000L / 100_000_000L + " s";
        }
        return nanos / 1_000_000L + " ms";
    }
}
