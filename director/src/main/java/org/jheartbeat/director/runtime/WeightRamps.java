package org.jheartbeat.director.runtime;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.RealServer;
import org.jheartbeat.director.config.Rejoin;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.TableCommand;

/**
 * The director's slow start of a rejoining real through the table's weights, for the IPVS backend (whose
 * kernel counters cannot be reset from user space) and for the user-space schedulers that do not ramp
 * natively: the real comes back with weight 1, and after each pass of checks (so every {@code checkinterval},
 * as HAProxy raises a weight at every health check) its weight is raised to
 * {@code ceil(weight × elapsed / ramp)}, until it is the configured weight. So a ramp has at most
 * {@code min(weight, ramp / checkinterval + 1)} steps, one {@code ipvsadm -e … -w N} each, and nothing waits.
 * The ramp is {@code slowstart} seconds, or, for {@code resetcounts = yes} with a least-connection scheduler,
 * {@link Rejoin#kernelRampSeconds()}. A weight of 1 cannot be ramped with integer weights; a real that goes
 * down again, or whose configuration changes, ends its ramp. Pure: time from the injected clock.
 */
final class WeightRamps {
    /** The schedulers that compare connection counts: the ones a count reset is about. */
    static final Set<String> LEAST_CONNECTION = Set.of("lc", "wlc", "sed", "nq");

    /** One raise: the command and the log line. */
    record Step(TableCommand.SetReal command, String message) {
    }

    private record Key(ServiceKey service, Endpoint real) {
    }

    private static final class Ramp {
        final RealServer real;
        final long from;
        final long nanos;
        int weight = 1;

        Ramp(RealServer real, long from, long nanos) {
            this.real = real;
            this.from = from;
            this.nanos = nanos;
        }
    }

    private final MonotonicClock clock;
    private final boolean nativeLeastConnection;
    private final Map<Key, Ramp> ramps = new LinkedHashMap<>();
    private final java.util.Set<ServiceKey> told = new java.util.HashSet<>();

    /**
     * @param clock                 monotonic time of the ramps
     * @param nativeLeastConnection the backend resets counts and ramps weights itself for lc, wlc, sed and nq
     *                              (the user-space schedulers), so no steps are made for those
     */
    WeightRamps(MonotonicClock clock, boolean nativeLeastConnection) {
        this.clock = clock;
        this.nativeLeastConnection = nativeLeastConnection;
    }

    /** How long this director ramps a real of {@code v} through the table, in seconds; 0: no ramp. */
    int rampSeconds(VirtualService v) {
        boolean lc = LEAST_CONNECTION.contains(v.scheduler());
        if (nativeLeastConnection && lc) {
            return 0;
        }
        Rejoin r = v.rejoin();
        return r.slowStartSeconds() > 0 ? r.slowStartSeconds() : r.resetCounts() && lc ? r.kernelRampSeconds() : 0;
    }

    /**
     * A real of {@code v} passes its check after being down: the weight to give it now (1 when it ramps, else its
     * configured weight).
     */
    int begin(VirtualService v, RealServer real) {
        int seconds = rampSeconds(v);
        ramps.remove(new Key(v.key(), real.endpoint()));
        if (seconds == 0 || real.weight() <= 1) {
            return real.weight();
        }
        ramps.put(new Key(v.key(), real.endpoint()), new Ramp(real, clock.nanoTime(), seconds * 1_000_000_000L));
        return 1;
    }

    /** The real went down again, or left the configuration: its ramp ends where it is. */
    void cancel(ServiceKey service, Endpoint real) {
        ramps.remove(new Key(service, real));
    }

    /** Whether a real is ramping. */
    boolean ramping(ServiceKey service, Endpoint real) {
        return ramps.containsKey(new Key(service, real));
    }

    /**
     * After a start or reload: a ramp ends when its real is no longer up with the same definition or its service
     * no longer ramps; the raises returned give the reals still up as they were their configured weight at once.
     *
     * @param cfg    the configuration now in force
     * @param upSame whether (service, real) is up with that very definition
     */
    List<Step> settle(org.jheartbeat.director.config.LdirectordConfig cfg, BiPredicate<ServiceKey, RealServer> upSame) {
        List<Step> out = new ArrayList<>();
        for (Iterator<Map.Entry<Key, Ramp>> it = ramps.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Ramp> e = it.next();
            ServiceKey k = e.getKey().service();
            RealServer real = e.getValue().real;
            boolean same = upSame.test(k, real);
            if (!same || cfg.virtual(k).map(this::rampSeconds).orElse(0) == 0) {
                it.remove();
                if (same) {
                    out.add(step(k, real, real.weight()));
                }
            }
        }
        return out;
    }

    /**
     * The rules to hand the backend after a start or reload: one {@link DirectorAction.Rejoin} per service that
     * has rules, or had them before (so a backend that applies them itself also hears they are gone).
     */
    List<DirectorAction> tell(org.jheartbeat.director.config.LdirectordConfig cfg) {
        List<DirectorAction> out = new ArrayList<>();
        for (VirtualService vs : cfg.virtuals()) {
            if (vs.rejoin().any() || told.contains(vs.key())) {
                told.add(vs.key());
                out.add(new DirectorAction.Rejoin(vs.key(), vs.rejoin()));
            }
        }
        return out;
    }

    /** The raises due now, in the order the ramps began; a ramp that reached its weight ends. */
    List<Step> due() {
        long now = clock.nanoTime();
        List<Step> out = new ArrayList<>();
        for (Iterator<Map.Entry<Key, Ramp>> it = ramps.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Ramp> e = it.next();
            Ramp r = e.getValue();
            int full = r.real.weight();
            long elapsed = Math.max(0, now - r.from);
            int w = elapsed >= r.nanos ? full
                    : (int) Math.max(1, Math.min(full, -Math.floorDiv(-(long) full * elapsed, r.nanos)));
            if (w > r.weight) {
                r.weight = w;
                out.add(step(e.getKey().service(), r.real, w));
            }
            if (w >= full) {
                it.remove();
            }
        }
        return out;
    }

    private static Step step(ServiceKey k, RealServer r, int w) {
        RealSpec spec = new RealSpec(r.endpoint(), r.forward(), w, r.upperThreshold(), r.lowerThreshold());
        return new Step(new TableCommand.SetReal(k, spec, true, true), "Slow start of real server: " + r.endpoint()
                + " (" + k.address() + ") (Weight set to " + w + " of " + r.weight() + ")");
    }
}
