package org.jheartbeat.core.takeover;

/**
 * The settings a {@link TakeoverMachine} is built with; fixed for the machine's life (no reload changes
 * them: a new daemon run builds a new machine). Immutable; start from {@link #DEFAULTS} and use the
 * withers.
 *
 * @param fencing                whether a STONITH device is configured for this node: a peer that dies
 *                               without releasing its groups is then fenced before they are taken over.
 *                               Default false
 * @param peerFirstInHaCf        whether the peer's {@code node} line comes before this node's in ha.cf (both
 *                               nodes share ha.cf): with equal weights, the node listed first wins the
 *                               fencing race. Default false
 * @param fenceDelayNanos        how long this node waits before fencing a lost peer when it loses the fencing
 *                               race, ns (jheartbeat.yaml {@code stonith: fence_delay}; the model is
 *                               Pacemaker's {@code priority-fencing-delay}, Heartbeat 3.0.6 fences at once).
 *                               The race: weight = the resource groups a node holds (here: RUNNING or
 *                               STARTING; the peer: what its last {@code rsc_hold} covers); the lighter node,
 *                               or with equal weights the node listed later in ha.cf, waits; the other fences
 *                               at once. The peer heard again during the wait cancels the fence. Default 0:
 *                               fences at once
 * @param fenceBeforeTakeover    off only in tests that prove the rule ({@code SafetyRules}): a dead peer's
 *                               groups are then taken over without fencing it first, as without a device.
 *                               Default true
 * @param selfFenceOnStopFailure self-fencing on a stop failure (Heartbeat rebooted; jheartbeat only when the
 *                               admin asks, {@code hb daemon --self-fence-command}): a group that cannot be
 *                               stopped makes this node tell the peer and ask for a {@link Effect.SelfFence}
 *                               instead of staying blocked. Default false
 */
public record TakeoverSettings(boolean fencing, boolean peerFirstInHaCf, long fenceDelayNanos,
                               boolean fenceBeforeTakeover, boolean selfFenceOnStopFailure) {
    /** No STONITH device, no fence delay, fence before takeover (when a device comes), no self-fencing. */
    public static final TakeoverSettings DEFAULTS = new TakeoverSettings(false, false, 0, true, false);

    /**
     * @throws IllegalArgumentException when {@code fenceDelayNanos} is negative
     */
    public TakeoverSettings {
        if (fenceDelayNanos < 0) {
            throw new IllegalArgumentException("fence delay " + fenceDelayNanos + " ns is negative");
        }
    }

    /** These settings with {@link #fencing} set to {@code on}. */
    public TakeoverSettings withFencing(boolean on) {
        return new TakeoverSettings(on, peerFirstInHaCf, fenceDelayNanos, fenceBeforeTakeover, selfFenceOnStopFailure);
    }

    /** These settings with {@link #peerFirstInHaCf} set to {@code first}. */
    public TakeoverSettings withPeerFirstInHaCf(boolean first) {
        return new TakeoverSettings(fencing, first, fenceDelayNanos, fenceBeforeTakeover, selfFenceOnStopFailure);
    }

    /**
     * These settings with {@link #fenceDelayNanos} set to {@code nanos}.
     *
     * @throws IllegalArgumentException when {@code nanos} is negative
     */
    public TakeoverSettings withFenceDelayNanos(long nanos) {
        return new TakeoverSettings(fencing, peerFirstInHaCf, nanos, fenceBeforeTakeover, selfFenceOnStopFailure);
    }

    /** These settings with {@link #fenceBeforeTakeover} set to {@code on}. */
    public TakeoverSettings withFenceBeforeTakeover(boolean on) {
        return new TakeoverSettings(fencing, peerFirstInHaCf, fenceDelayNanos, on, selfFenceOnStopFailure);
    }

    /** These settings with {@link #selfFenceOnStopFailure} set to {@code on}. */
    public TakeoverSettings withSelfFenceOnStopFailure(boolean on) {
        return new TakeoverSettings(fencing, peerFirstInHaCf, fenceDelayNanos, fenceBeforeTakeover, on);
    }
}
