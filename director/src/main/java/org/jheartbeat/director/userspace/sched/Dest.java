package org.jheartbeat.director.userspace.sched;

import java.net.InetSocketAddress;
import org.jheartbeat.director.table.RealSpec;

/**
 * One destination (real server) of a service, as the kernel's {@code struct ip_vs_dest} keeps it:
 * weight and last non-zero weight, thresholds and the overload flag with the rules that set and clear
 * it, AVAILABLE (cleared when deleted), the connection counters and the traffic counters with their
 * estimator.
 */
final class Dest {
    RealSpec spec;
    final InetSocketAddress address;
    int weight;
    /** The latest non-zero weight (the weight given at add, even 0), as mh uses it. */
    int lastWeight;
    int upperThreshold;
    int lowerThreshold;
    boolean overloaded;
    boolean available = true;
    long activeConns;
    long inactConns;
    long persistConns;
    /** When a deleted destination last had no connection (ns), for the trash period; -1 while referenced. */
    long idleSince = -1;
    final Traffic traffic = new Traffic();
    /**
     * Connections bound before the service's last count reset ({@code resetcounts}) and still alive, split as
     * the counters are: a least-connection decision leaves them out (see {@link #load}).
     */
    long oldActive;
    long oldInact;
    /** Slow start ({@code slowstart}): when the ramp began (ns) and its length; 0 = no ramp running. */
    long rampFrom;
    long rampNanos;

    /** The fixed-point unit of {@link #load}'s slow-start scaling (a weight fraction of 1/256 at the least). */
    static final long RAMP_UNIT = 256;

    Dest(RealSpec spec) {
        this.spec = spec;
        this.address = spec.endpoint().socketAddress();
        this.weight = spec.weight();
        this.lastWeight = spec.weight();
        this.upperThreshold = spec.upperThreshold();
        this.lowerThreshold = spec.lowerThreshold();
    }

    /** {@code ip_vs_dest_conn_overhead}: active × 256 + inactive. */
    long overhead() {
        return (activeConns << 8) + inactConns;
    }

    /** {@code ip_vs_dest_totalconns}: active + inactive (templates not counted). */
    long totalConns() {
        return activeConns + inactConns;
    }

    /**
     * An entry crossed between active and inactive ({@code set_tcp_state}); {@code old}: it was bound before
     * the last count reset, so the reset's baseline moves with it.
     */
    void move(boolean toActive, boolean old) {
        long d = toActive ? 1 : -1;
        activeConns += d;
        inactConns -= d;
        if (old) {
            oldActive += d;
            oldInact -= d;
        }
    }

    /** An entry unbound ({@code ip_vs_unbind_dest}); {@code old} as in {@link #move}. */
    void unbind(boolean inactive, boolean old) {
        if (inactive) {
            inactConns--;
            oldInact -= old ? 1 : 0;
        } else {
            activeConns--;
            oldActive -= old ? 1 : 0;
        }
    }

    /** The count reset: every connection bound now is left out of later least-connection decisions. */
    void resetCounts() {
        oldActive = activeConns;
        oldInact = inactConns;
    }

    /** Active connections bound since the last count reset (all of them without one). */
    long countedActive() {
        return activeConns - oldActive;
    }

    /**
     * What the least-connection schedulers compare, in units of {@link #RAMP_UNIT}: {@code base} (an overhead or
     * a sed cost over the connections bound since the last count reset) times {@code RAMP_UNIT}, divided by the
     * slow-start progress while a ramp runs, i.e. as if the weight were {@code weight × elapsed / ramp} (at least
     * 1/256 of it). Without a reset or ramp this is the kernel's value times a constant, so the decisions are the
     * kernel's. The ramp ends itself once its time is over.
     *
     * @param base     the kernel's cost over the counted connections
     * @param nowNanos the scheduler's clock
     */
    long load(long base, long nowNanos) {
        if (rampNanos > 0) {
            long elapsed = nowNanos - rampFrom;
            if (elapsed < rampNanos) {
                long progress = Math.max(1, elapsed / Math.max(1, rampNanos / RAMP_UNIT));
                return base * RAMP_UNIT * RAMP_UNIT / Math.min(RAMP_UNIT, progress);
            }
            rampNanos = 0;
        }
        return base * RAMP_UNIT;
    }

    /** Not overload-flagged and weight above 0: what most schedulers accept. */
    boolean usable() {
        return !overloaded && weight > 0;
    }

    /** {@code __ip_vs_update_dest}: weight, last weight, thresholds and the overload flag. */
    void update(RealSpec real, boolean add) {
        if (add || real.weight() != 0) {
            lastWeight = real.weight();
        }
        weight = real.weight();
        if (real.upperThreshold() == 0 || real.upperThreshold() > upperThreshold) {
            overloaded = false;
        }
        upperThreshold = real.upperThreshold();
        lowerThreshold = real.lowerThreshold();
        spec = real;
    }

    /** At bind: the overload flag is set when active + inactive reaches the upper threshold. */
    void checkUpper() {
        if (upperThreshold != 0 && totalConns() >= upperThreshold) {
            overloaded = true;
        }
    }

    /**
     * At unbind: the overload flag is cleared below the lower threshold, or below ¾ of the upper when no
     * lower is set, or outright with no threshold.
     */
    void checkLower() {
        if (lowerThreshold != 0) {
            if (totalConns() < lowerThreshold) {
                overloaded = false;
            }
        } else if (upperThreshold != 0) {
            if (totalConns() * 4 < upperThreshold * 3L) {
                overloaded = false;
            }
        } else {
            overloaded = false;
        }
    }

    @Override
    public String toString() {
        return spec.endpoint().toString();
    }
}
