package org.jheartbeat.director.userspace.sched;

import java.util.List;
import java.util.Locale;
import org.jheartbeat.director.table.ServiceSpec;

/**
 * The choice of a service's {@link Scheduler}: owns the thirteen scheduler names of {@code ipvsadm -s}
 * (rr wrr lc wlc sed nq lblc lblcr dh sh mh fo ovf) and the flag words of {@code ipvsadm -b}
 * ({@code sh-fallback}/{@code mh-fallback} = {@code flag-1}, {@code sh-port}/{@code mh-port} =
 * {@code flag-2}, {@code flag-3} accepted and unused).
 */
final class Schedulers {
    private Schedulers() {
    }

    /**
     * The scheduler {@code s.scheduler()} names, over the service's destination list (kept by the service,
     * read by the scheduler), with the flags of {@code s.schedFlags()}.
     *
     * @throws IllegalArgumentException for an unknown scheduler or flag (the kernel's "Scheduler or
     *                                  persistence engine not found")
     */
    static Scheduler create(ServiceSpec s, List<Dest> dests, Tunables tunables) {
        boolean flag1 = false;
        boolean flag2 = false;
        if (s.schedFlags().isPresent()) {
            for (String f : s.schedFlags().get().split(",")) {
                switch (f.trim().toLowerCase(Locale.ROOT)) {
                    case "flag-1", "sh-fallback", "mh-fallback" -> flag1 = true;
                    case "flag-2", "sh-port", "mh-port" -> flag2 = true;
                    case "flag-3", "" -> {
                    }
                    default -> throw new IllegalArgumentException("unknown scheduler flag '" + f
                            + "' (ipvsadm -b takes sh-fallback, sh-port, mh-fallback, mh-port, flag-1..3)");
                }
            }
        }
        return switch (s.scheduler()) {
            case "rr" -> new RoundRobin(dests);
            case "wrr" -> new WeightedRoundRobin(dests);
            case "lc" -> new LeastConnection(dests, LeastConnection.Rule.LC);
            case "wlc" -> new LeastConnection(dests, LeastConnection.Rule.WLC);
            case "sed" -> new LeastConnection(dests, LeastConnection.Rule.SED);
            case "nq" -> new LeastConnection(dests, LeastConnection.Rule.NQ);
            case "fo" -> new LeastConnection(dests, LeastConnection.Rule.FO);
            case "ovf" -> new LeastConnection(dests, LeastConnection.Rule.OVF);
            case "lblc" -> new Locality(dests, false, tunables.lblcExpirationSeconds() * IpvsService.SECOND);
            case "lblcr" -> new Locality(dests, true, tunables.lblcrExpirationSeconds() * IpvsService.SECOND);
            case "dh" -> new Hashing(dests, Hashing.Kind.DH, false, false);
            case "sh" -> new Hashing(dests, Hashing.Kind.SH, flag1, flag2);
            case "mh" -> new Hashing(dests, Hashing.Kind.MH, flag1, flag2);
            default -> throw new IllegalArgumentException("Scheduler or persistence engine not found: '"
                    + s.scheduler() + "' (one of rr wrr lc wlc sed nq lblc lblcr dh sh mh fo ovf)");
        };
    }
}
