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
