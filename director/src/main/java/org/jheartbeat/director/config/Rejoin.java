package org.jheartbeat.director.config;

/**
 * What happens when a real server rejoins its virtual service (its check passes after it was down, so it is
 * added back or its weight raised from 0): two jheartbeat extensions of ldirectord.cf, per virtual or global.
 * ldirectord has neither: its real comes back at full weight, and with a least-connection scheduler it then
 * takes every new connection until its count catches up with the others'.
 *
 * @param resetCounts      {@code resetcounts = yes}: the seed's "quiesce server" rule, the least-connection
 *                         counts are reset at the rejoin, so the next decisions share new connections by weight
 *                         instead of flooding the returner. The user-space director does it exactly (it counts
 *                         only connections opened since the rejoin, until the older ones end); the kernel's IPVS
 *                         counters cannot be reset from user space, so the kernel backend ramps the weight
 *                         instead, over {@code slowStartSeconds} or {@link #KERNEL_RESET_RAMP_SECONDS}
 * @param slowStartSeconds {@code slowstart = N}: the returner's weight grows linearly from almost 0 to its
 *                         configured weight over N seconds (HAProxy's {@code slowstart}); 0 = off
 */
public record Rejoin(boolean resetCounts, int slowStartSeconds) {
    /** Neither: ldirectord's behaviour. */
    public static final Rejoin OFF = new Rejoin(false, 0);
    /** The largest {@code slowstart}, in seconds (one hour). */
    public static final int MAX_SLOW_START_SECONDS = 3600;
    /** The kernel backend's ramp for {@code resetcounts = yes} without a {@code slowstart}, in seconds. */
    public static final int KERNEL_RESET_RAMP_SECONDS = 30;

    public Rejoin {
        if (slowStartSeconds < 0 || slowStartSeconds > MAX_SLOW_START_SECONDS) {
            throw new IllegalArgumentException("slowstart out of 0.." + MAX_SLOW_START_SECONDS + ": "
                    + slowStartSeconds);
        }
    }

    /** Whether anything differs from ldirectord's behaviour. */
    public boolean any() {
        return resetCounts || slowStartSeconds > 0;
    }

    /**
     * How long the kernel backend ramps a returner's weight (it cannot reset the kernel's counters): the
     * {@code slowstart}, else {@link #KERNEL_RESET_RAMP_SECONDS} with {@code resetcounts}, else 0 (no ramp).
     */
    public int kernelRampSeconds() {
        return slowStartSeconds > 0 ? slowStartSeconds : resetCounts ? KERNEL_RESET_RAMP_SECONDS : 0;
    }
}
