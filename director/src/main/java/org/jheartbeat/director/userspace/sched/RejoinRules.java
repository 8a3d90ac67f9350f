package org.jheartbeat.director.userspace.sched;

import java.util.List;
import org.jheartbeat.director.config.Rejoin;

/**
 * jheartbeat's rules for a real server that rejoins a service (added, or its weight raised from 0), which the
 * kernel's IPVS does not have. Without them a least-connection scheduler sends the returner, which holds no
 * connection, every new connection until its count catches up with the others' (the seed's rejoin flood):
 * <ul>
 * <li>{@code resetcounts} (the seed's "quiesce server" rule, "the least-connection counts are reset"): every
 * connection bound at the rejoin, on every real of the service, is left out of later lc/wlc/sed/nq decisions
 * until it ends ({@link Dest#resetCounts}); the decisions then compare only connections opened since, so new
 * connections are shared by weight from the first one, and once the older connections are gone the decisions
 * are the kernel's again. ActiveConn/InActConn still show every connection.</li>
 * <li>{@code slowstart = N} (HAProxy's {@code slowstart}): for N seconds the returner's weight counts as
 * {@code weight × elapsed / N} (at least 1/256 of it) in lc/wlc/sed/nq decisions ({@link Dest#load}), read
 * from the service's clock at every decision.</li>
 * </ul>
 * Both apply only when the service holds connections: a real joining an idle service (the director starting,
 * or nothing open) cannot be flooded, so nothing is reset and nothing ramps (HAProxy does not slow-start at its
 * own start either).
 */
final class RejoinRules {
    private RejoinRules() {
    }

    /**
     * A real joined.
     *
     * @param d        the real, already in the list with its weight
     * @param dests    the service's live reals
     * @param trash    its deleted reals that still hold connections
     * @param rejoin   the service's rules
     * @param nowNanos the service's clock
     * @return whether the counts were reset (the service then starts a new reset epoch)
     */
    static boolean joined(Dest d, List<Dest> dests, List<Dest> trash, Rejoin rejoin, long nowNanos) {
        d.rampNanos = 0; // a ramp from an earlier return (a real back from the trash) does not carry over
        boolean busy = false;
        for (List<Dest> l : List.of(dests, trash)) {
            for (Dest o : l) {
                busy |= o.totalConns() > 0;
            }
        }
        if (!busy || !rejoin.any()) {
            return false;
        }
        if (rejoin.slowStartSeconds() > 0) {
            d.rampFrom = nowNanos;
            d.rampNanos = rejoin.slowStartSeconds() * IpvsService.SECOND;
        }
        if (rejoin.resetCounts()) {
            dests.forEach(Dest::resetCounts);
            trash.forEach(Dest::resetCounts);
            return true;
        }
        return false;
    }
}
