package org.jheartbeat.core.protocol;

/**
 * Two safety rules that a test may switch off, to prove that heartbeat-core's deterministic cluster
 * simulator (test package {@code org.jheartbeat.core.sim}) finds what their absence breaks. The daemon
 * never passes anything but {@link #ALL}; nothing reads these from a configuration file.
 *
 * @param fenceBeforeTakeover        with a STONITH device, a peer that died while it may hold groups is
 *                                   fenced, and the device must confirm it is off, before its groups are
 *                                   taken over ({@code TakeoverMachine}); off: they are taken over at once,
 *                                   as without a device
 * @param olderGenerationsAreReplays a frame of an older generation of the peer than the one tracked is a
 *                                   replay and dropped ({@code SequenceTracker}, after Heartbeat 3.0.6
 *                                   {@code should_drop_message}); off: any other generation counts as a
 *                                   restart of the peer
 */
public record SafetyRules(boolean fenceBeforeTakeover, boolean olderGenerationsAreReplays) {
    /** Every rule on: what the daemon runs. */
    public static final SafetyRules ALL = new SafetyRules(true, true);
}
