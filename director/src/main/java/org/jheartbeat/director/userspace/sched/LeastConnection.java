package org.jheartbeat.director.userspace.sched;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The load-comparing schedulers, each as its kernel file chooses (list order, strict
 * comparisons, so ties keep the earlier destination):
 * <ul>
 * <li>lc ({@code ip_vs_lc.c}): the smallest overhead (active × 256 + inactive) among
 * destinations with weight &gt; 0 and no overload flag;</li>
 * <li>wlc ({@code ip_vs_wlc.c}): the first usable destination, then any later non-overloaded one
 * with {@code oh(least) × w(d) > oh(d) × w(least)};</li>
 * <li>sed ({@code ip_vs_sed.c}): as wlc with cost active + 1;</li>
 * <li>nq ({@code ip_vs_nq.c}): the first usable destination with no active connection at once,
 * otherwise the sed rule;</li>
 * <li>fo ({@code ip_vs_fo.c}): the highest weight among non-overloaded destinations
 * ({@code weight > best}, from 0);</li>
 * <li>ovf ({@code ip_vs_ovf.c}): the highest weight among usable destinations with active
 * connections not above their weight.</li>
 * </ul>
 * lc, wlc, sed and nq compare {@link Dest#load}: the kernel's cost over the connections bound since the
 * service's last count reset ({@code resetcounts}), scaled while a real's slow start runs ({@code slowstart}).
 * With neither, that is the kernel's cost times a constant, so the decisions are the kernel's. lblc and lblcr
 * keep the kernel's plain wlc ({@link #wlc}).
 */
final class LeastConnection implements Scheduler {
    /** Which rule. */
    enum Rule { LC, WLC, SED, NQ, FO, OVF }

    private final List<Dest> dests;
    private final Rule rule;

    LeastConnection(List<Dest> dests, Rule rule) {
        this.dests = dests;
        this.rule = rule;
    }

    @Override
    public Dest schedule(Request request, long nowNanos) {
        return switch (rule) {
            case LC -> lc(dests, nowNanos);
            case WLC -> weightedLeast(dests, d -> true, d -> d.load((d.countedActive() << 8) + d.inactConns
                    - d.oldInact, nowNanos));
            case SED -> weightedLeast(dests, d -> true, d -> d.load(d.countedActive() + 1, nowNanos));
            case NQ -> nq(dests, nowNanos);
            case FO -> fo(dests);
            case OVF -> ovf(dests);
        };
    }

    static Dest lc(List<Dest> dests, long now) {
        Dest least = null;
        long loh = 0;
        for (Dest d : dests) {
            if (!d.usable()) {
                continue;
            }
            long doh = d.load((d.countedActive() << 8) + d.inactConns - d.oldInact, now);
            if (least == null || doh < loh) {
                least = d;
                loh = doh;
            }
        }
        return least;
    }

    /** The wlc rule, also lblc's and lblcr's fallback. */
    static Dest wlc(List<Dest> dests) {
        return weightedLeast(dests, d -> true, Dest::overhead);
    }

    /**
     * The kernel's weighted-least-overhead loop (wlc, sed, lblc's set minimum): the first usable dest
     * that passes {@code also}, then each later non-overloaded one that passes {@code also} and has a
     * strictly smaller overhead per weight, compared by cross-multiplying as the kernel does (no
     * division). Null when none qualifies.
     */
    static Dest weightedLeast(List<Dest> dests, Predicate<Dest> also, ToLongFunction<Dest> overhead) {
        Dest least = null;
        long loh = 0;
        for (Dest d : dests) {
            if (least == null) {
                if (d.usable() && also.test(d)) {
                    least = d;
                    loh = overhead.applyAsLong(d);
                }
                continue;
            }
            if (d.overloaded || !also.test(d)) {
                continue;
            }
            long doh = overhead.applyAsLong(d);
            if (loh * d.weight > doh * least.weight) {
                least = d;
                loh = doh;
            }
        }
        return least;
    }

    static Dest nq(List<Dest> dests, long now) {
        Dest least = null;
        long loh = 0;
        for (Dest d : dests) {
            if (!d.usable()) {
                continue;
            }
            long doh = d.load(d.countedActive() + 1, now);
            if (d.countedActive() == 0) {
                return d;
            }
            if (least == null || loh * d.weight > doh * least.weight) {
                least = d;
                loh = doh;
            }
        }
        return least;
    }

    static Dest fo(List<Dest> dests) {
        Dest best = null;
        int hw = 0;
        for (Dest d : dests) {
            if (!d.overloaded && d.weight > hw) {
                best = d;
                hw = d.weight;
            }
        }
        return best;
    }

    static Dest ovf(List<Dest> dests) {
        Dest h = null;
        for (Dest d : dests) {
            if (d.overloaded || d.activeConns > d.weight || d.weight == 0) {
                continue;
            }
            if (h == null || d.weight > h.weight) {
                h = d;
            }
        }
        return h;
    }
}
