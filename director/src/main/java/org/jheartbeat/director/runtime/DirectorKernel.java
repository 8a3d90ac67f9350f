package org.jheartbeat.director.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.director.runtime.KernelStates.RealState;
import org.jheartbeat.director.runtime.KernelStates.VirtualState;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.alert.DaemonStatus;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.RealServer;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.runtime.DirectorAction.Level;
import org.jheartbeat.director.table.IpvsTable;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableCommand;
import org.jheartbeat.director.table.TableSnapshot;

/**
 * The director's decisions, pure and single-threaded: given the configuration, what the table
 * holds and each check's outcome, which table commands to run, what to log and which programs to
 * start. It follows ldirectord 4.x (facts {@code lvs.md} §3.6):
 *
 * <ul>
 *   <li><b>start / reload</b>: services are added ({@code -A}) or edited ({@code -E}, only when
 *       they differ); a configured real present with a non-zero weight counts as up (edited if its
 *       weight, forward or thresholds differ); absent or weight-0 reals are first restored with
 *       their full weight and then taken down ({@code readdquiescent = no}, the default), or only
 *       taken down ({@code readdquiescent = yes}); reals of configured services that the config
 *       does not name are purged ({@code -d}); services of the previous config that are gone are
 *       deleted ({@code -D}); services the config never named are never touched.</li>
 *   <li><b>checks</b>: a success resets the failure count and restores a down real
 *       ({@code -a}/{@code -e ... -w W}); {@code failurecount} consecutive failures take an up real
 *       down: deleted ({@code -d}) or, with {@code quiescent = yes}, set to weight 0.</li>
 *   <li><b>fallback</b>: when no real of a service is up its {@code fallback} server is added
 *       (weight 1) and {@code fallbackcommand start VIP:PORT PROTO} runs; when one comes back the
 *       fallback is deleted and {@code fallbackcommand stop ...} runs.</li>
 *   <li><b>stop</b>: with {@code cleanstop = yes} every real it brought up is deleted, then the
 *       service; with {@code cleanstop = no} nothing changes.</li>
 * </ul>
 *
 * <p><b>rejoins</b> ({@code resetcounts}, {@code slowstart}; jheartbeat extensions): a real that passes after
 * being down comes back at weight 1 and is raised after each pass of checks ({@link WeightRamps}, through the
 * table), unless the backend applies the rules itself ({@link DirectorAction.Rejoin}).
 *
 * <p><b>alerts</b> ({@code emailalert}): every change of a real or fallback server that ldirectord
 * mails about also goes to {@link EmailAlerts}, which decides the mail and its repeats
 * ({@link #alertsDue}) from the kernel's {@link DaemonStatus}.
 *
 * <p>The kernel keeps its own {@link IpvsTable} of what it applied; after a backend failure the
 * shell hands it the table read back ({@link #resync}). Time only from the injected
 * {@link MonotonicClock}; no threads or I/O.
 */
public final class DirectorKernel {

    private final EmailAlerts alerts;
    private final WeightRamps ramps;
    private DaemonStatus status = DaemonStatus.STARTING;
    private IpvsTable table = new IpvsTable();
    private final Map<ServiceKey, VirtualState> virtuals = new LinkedHashMap<>();
    private LdirectordConfig config;
    private List<DirectorAction> out = new ArrayList<>();

    /** A kernel on the JVM's monotonic clock. */
    public DirectorKernel() {
        this(MonotonicClock.system());
    }

    /**
     * @param clock the time of alert repeats ({@code emailalertfreq}); tests pass a fake clock
     */
    public DirectorKernel(MonotonicClock clock) {
        this(clock, false);
    }

    /**
     * @param clock        the time of alert repeats and weight ramps
     * @param nativeRejoin the backend applies {@link DirectorAction.Rejoin} itself for lc, wlc, sed and nq
     */
    public DirectorKernel(MonotonicClock clock, boolean nativeRejoin) {
        this.alerts = new EmailAlerts(java.util.Objects.requireNonNull(clock, "clock"));
        this.ramps = new WeightRamps(clock, nativeRejoin);
    }

    /** The real servers' states, for status and tests: (service, real) to up. */
    public Map<ServiceKey, Map<Endpoint, Boolean>> upStates() {
        Map<ServiceKey, Map<Endpoint, Boolean>> m = new LinkedHashMap<>();
        virtuals.forEach((k, v) -> {
            Map<Endpoint, Boolean> r = new LinkedHashMap<>();
            v.reals.forEach((e, s) -> r.put(e, s.up));
            m.put(k, r);
        });
        return m;
    }

    /** The table as the kernel believes it to be. */
    public TableSnapshot expectedTable() {
        return table.snapshot();
    }

    /** The services this director owns (those of its current config). */
    public List<ServiceKey> ownedServices() {
        return List.copyOf(virtuals.keySet());
    }

    /** The current configuration (null before {@link #start}). */
    public LdirectordConfig config() {
        return config;
    }

    /**
     * Starts with a config and the table as read from the backend.
     *
     * @return the commands, log lines and programs of ldirectord's start sequence
     */
    public List<DirectorAction> start(LdirectordConfig cfg, TableSnapshot current) {
        out = new ArrayList<>();
        status = DaemonStatus.STARTING;
        table = IpvsTable.of(current);
        setup(cfg, List.of());
        return take();
    }

    /**
     * Applies a changed config: only what differs is touched; reals of unchanged services keep
     * their state.
     *
     * @return the commands and log lines
     */
    public List<DirectorAction> reload(LdirectordConfig cfg) {
        out = new ArrayList<>();
        status = DaemonStatus.RELOADING;
        List<ServiceKey> old = new ArrayList<>(virtuals.keySet());
        setup(cfg, old);
        return take();
    }

    /**
     * One check's outcome.
     *
     * @param service the virtual service
     * @param real    the real server checked
     * @param up      whether it passed
     * @param reason  why it failed (ignored when up)
     * @return the commands and log lines (empty when nothing changes)
     */
    public List<DirectorAction> checked(ServiceKey service, Endpoint real, boolean up, String reason) {
        out = new ArrayList<>();
        status = DaemonStatus.RUNNING;
        VirtualState v = virtuals.get(service);
        RealState r = v == null ? null : v.reals.get(real);
        if (r == null) {
            return List.of(); // a check of a server the config no longer has
        }
        if (up) {
            if (r.failures > 0 && r.up) {
                log(Level.INFO, "Resetting soft failure count: " + id(v, r.real.endpoint()));
            }
            boolean failedBefore = r.failures > 0; // a rejoin, not the first pass after the start
            r.failures = 0;
            if (!r.up) {
                restore(v, r, failedBefore ? ramps.begin(v.virtual, r.real) : r.real.weight());
            }
        } else {
            r.failures++;
            if (r.up) {
                if (r.failures >= v.virtual.failureCount()) {
                    log(Level.WARN, "Check of real server " + id(v, r.real.endpoint()) + " failed: " + reason);
                    takeDown(v, r);
                } else {
                    log(Level.INFO, "Soft failure of real server " + id(v, r.real.endpoint()) + " (" + r.failures
                            + " of " + v.virtual.failureCount() + "): " + reason);
                }
            }
        }
        return take();
    }

    /**
     * Stops: with {@code cleanstop = yes} deletes the reals it brought up and then each service.
     */
    public List<DirectorAction> stop() {
        out = new ArrayList<>();
        status = DaemonStatus.STOPPING;
        for (VirtualState v : virtuals.values()) {
            if (!v.virtual.cleanStop()) {
                continue;
            }
            ServiceKey k = v.virtual.key();
            for (RealState r : v.reals.values()) {
                if (r.up && table.real(k, r.real.endpoint()).isPresent()) {
                    apply(new TableCommand.DeleteReal(k, r.real.endpoint()));
                    changed(v, r.real.endpoint(), "Deleted real server: " + id(v, r.real.endpoint()), false);
                }
            }
            if (table.service(k).isPresent()) {
                apply(new TableCommand.DeleteService(k));
                log(Level.INFO, "Deleted virtual server: " + label(k));
            }
        }
        return take();
    }

    /**
     * After a backend failure: the commands that bring the services this director owns from what
     * the table actually holds to what the kernel wants (services it does not own are left alone).
     *
     * @param actual the table as read back
     * @return the repair commands with one log line, or nothing if the table already is as wanted
     */
    public List<DirectorAction> repair(TableSnapshot actual) {
        out = new ArrayList<>();
        status = DaemonStatus.RUNNING;
        IpvsTable have = IpvsTable.of(actual);
        List<TableCommand> diff = org.jheartbeat.director.table.TableDiff.between(have, table, ownedServices());
        table = have;
        if (!diff.isEmpty()) {
            log(Level.WARN, "Repairing the table after a failed change: " + diff.size() + " command(s)");
            diff.forEach(this::apply);
        }
        return take();
    }

    /**
     * The repeats that are due ({@code emailalertfreq}, ldirectord's {@code ld_emailalert_resend}):
     * for each real still down whose last alert is at least its service's {@code emailalertfreq}
     * seconds old, one "Inaccessible real server: RIP:PORT (VIP:PORT)" alert. The shell calls it
     * after each pass of checks.
     *
     * @return the alerts (log line and mail each), empty when none is due
     */
    public List<DirectorAction> alertsDue() {
        out = new ArrayList<>();
        status = DaemonStatus.RUNNING;
        alerts.due((service, real) -> {
            VirtualState v = virtuals.get(service);
            RealState r = v == null ? null : v.reals.get(real);
            return r == null || r.up ? null : v.virtual;
        }, status, config, out);
        return take();
    }

    /**
     * What the shell runs after each pass of checks: the alert repeats ({@link #alertsDue}) and the slow-start
     * weight raises that are due ({@link WeightRamps}).
     */
    public List<DirectorAction> due() {
        List<DirectorAction> a = new ArrayList<>(alertsDue());
        ramps.due().forEach(this::step);
        a.addAll(take());
        return a;
    }

    // ---- the start/reload sequence ----

    private void setup(LdirectordConfig cfg, List<ServiceKey> previous) {
        this.config = cfg;
        boolean readdQuiescent = cfg.globals().readdQuiescent();
        Map<ServiceKey, VirtualState> next = new LinkedHashMap<>();
        Map<VirtualState, List<RealState>> queuedDown = new LinkedHashMap<>();
        for (VirtualService vs : cfg.virtuals()) {
            ServiceKey k = vs.key();
            VirtualState v = virtuals.get(k);
            boolean known = v != null;
            if (v == null) {
                v = new VirtualState(vs);
            }
            VirtualService before = v.virtual;
            v.virtual = vs;
            next.put(k, v);
            ServiceSpec spec = ServiceSpec.of(vs);
            Optional<ServiceSpec> have = table.service(k);
            if (have.isEmpty()) {
                apply(new TableCommand.AddService(spec));
                log(Level.INFO, "Added virtual server: " + label(k));
            } else if (!have.get().equals(spec)) {
                apply(new TableCommand.EditService(spec));
                log(Level.INFO, "Edited virtual server: " + label(k));
            }
            boolean sameChecks = before.sameChecks(vs);
            Map<Endpoint, RealState> kept = new LinkedHashMap<>();
            List<RealState> down = new ArrayList<>();
            for (RealServer rs : "off".equals(vs.checkType()) ? List.<RealServer>of() : vs.reals()) {
                RealState st = v.reals.get(rs.endpoint());
                boolean unchanged = st != null && st.real.sameAs(rs) && sameChecks && previous.contains(k);
                if (st == null || !unchanged) {
                    st = new RealState(rs);
                }
                st.real = rs;
                kept.put(rs.endpoint(), st);
                if (unchanged) {
                    continue; // an unchanged real of an unchanged service is left as it is
                }
                Optional<RealSpec> present = table.real(k, rs.endpoint());
                if (present.isPresent() && present.get().weight() != 0) {
                    st.up = true;
                    st.failures = 0;
                    RealSpec want = spec(rs);
                    if (!present.get().equals(want)) {
                        apply(new TableCommand.SetReal(k, want, true, true));
                        changed(v, rs.endpoint(), "Restored real server: " + id(v, rs.endpoint()) + " (Weight set to "
                                + rs.weight() + ")", false);
                    }
                } else {
                    st.up = false;
                    down.add(st);
                }
            }
            v.reals.clear();
            v.reals.putAll(kept);
            // reals in the table that the config does not name (the fallback excepted)
            Optional<Endpoint> fb = vs.fallback().map(f -> f.endpoint());
            for (RealSpec r : table.reals(k)) {
                if (!kept.containsKey(r.endpoint()) && !(fb.isPresent() && fb.get().equals(r.endpoint()))) {
                    apply(new TableCommand.DeleteReal(k, r.endpoint()));
                    changed(v, r.endpoint(), "Purged real server: " + id(v, r.endpoint()), false);
                }
            }
            if (!known || !before.fallback().equals(vs.fallback())) {
                // a new service (or a new fallback): the fallback is on if the table holds it
                v.fallbackOn = fb.isPresent() && table.real(k, fb.get()).isPresent()
                        || known && v.fallbackOn && vs.fallback().isEmpty();
            }
            queuedDown.put(v, down);
        }
        virtuals.clear();
        virtuals.putAll(next);
        for (Map.Entry<VirtualState, List<RealState>> e : queuedDown.entrySet()) {
            VirtualState v = e.getKey();
            if ("off".equals(v.virtual.checkType())) {
                continue;
            }
            fallbackOn(v);
            for (RealState r : e.getValue()) {
                if ("on".equals(v.virtual.checkType())) {
                    restore(v, r, r.real.weight());
                    continue;
                }
                if (!readdQuiescent) {
                    restore(v, r, r.real.weight());
                }
                takeDown(v, r);
            }
        }
        for (ServiceKey k : previous) {
            if (!virtuals.containsKey(k) && table.service(k).isPresent()) {
                apply(new TableCommand.DeleteService(k));
                log(Level.INFO, "Deleted virtual server: " + label(k));
            }
        }
        ramps.settle(cfg, this::upAsDefined).forEach(this::step);
        out.addAll(ramps.tell(cfg));
    }

    /** Whether a real is up with that very definition (a ramp may go on through a reload). */
    private boolean upAsDefined(ServiceKey k, RealServer real) {
        RealState st = virtuals.containsKey(k) ? virtuals.get(k).reals.get(real.endpoint()) : null;
        return st != null && st.up && st.real.equals(real);
    }

    private void step(WeightRamps.Step st) {
        apply(st.command());
        log(Level.INFO, st.message());
    }

    // ---- transitions, named as ldirectord names them ----

    /** A real passes (or is forced up): add it, or edit it back to {@code weight} (slow start: 1); fallback off. */
    private void restore(VirtualState v, RealState r, int weight) {
        ServiceKey k = v.virtual.key();
        RealSpec want = spec(r.real).withWeight(weight);
        Optional<RealSpec> present = table.real(k, r.real.endpoint());
        if (present.isEmpty()) {
            apply(new TableCommand.SetReal(k, want, false, true));
            changed(v, r.real.endpoint(), "Added real server: " + id(v, r.real.endpoint()) + " (Weight set to "
                    + want.weight() + ")", false);
        } else if (!present.get().equals(want)) {
            apply(new TableCommand.SetReal(k, want, true, true));
            changed(v, r.real.endpoint(), "Restored real server: " + id(v, r.real.endpoint()) + " (Weight set to "
                    + want.weight() + ")", false);
        }
        if (weight != r.real.weight()) {
            log(Level.INFO, "Slow start of real server: " + id(v, r.real.endpoint()) + ": weight " + weight + " to "
                    + r.real.weight() + " over " + ramps.rampSeconds(v.virtual) + " s");
        }
        r.up = true;
        r.failures = 0;
        fallbackOff(v);
    }

    /** A real fails (or is forced down): quiesce or delete it; fallback on when none is left. */
    private void takeDown(VirtualState v, RealState r) {
        ServiceKey k = v.virtual.key();
        Optional<RealSpec> present = table.real(k, r.real.endpoint());
        if (v.virtual.quiescent()) {
            if (present.isPresent()) {
                if (present.get().weight() != 0 || present.get().forward() != r.real.forward()) {
                    apply(new TableCommand.SetReal(k, new RealSpec(r.real.endpoint(), r.real.forward(), 0,
                            present.get().upperThreshold(), present.get().lowerThreshold()), true, false));
                    changed(v, r.real.endpoint(), "Quiescent real server: " + id(v, r.real.endpoint())
                            + " (Weight set to 0)", true);
                }
            } else if (config.globals().readdQuiescent()) {
                apply(new TableCommand.SetReal(k, new RealSpec(r.real.endpoint(), r.real.forward(), 0, 0, 0), false,
                        false));
                changed(v, r.real.endpoint(), "Quiescent real server: " + id(v, r.real.endpoint())
                            + " (Weight set to 0)", true);
            }
        } else if (present.isPresent()) {
            apply(new TableCommand.DeleteReal(k, r.real.endpoint()));
            changed(v, r.real.endpoint(), "Deleted real server: " + id(v, r.real.endpoint()), true);
        }
        r.up = false;
        ramps.cancel(k, r.real.endpoint());
        fallbackOn(v);
    }

    private void fallbackOn(VirtualState v) {
        if (v.fallbackOn || v.reals.values().stream().anyMatch(r -> r.up)) {
            return;
        }
        v.fallbackOn = true;
        ServiceKey k = v.virtual.key();
        v.virtual.fallback().ifPresent(f -> {
            RealSpec spec = new RealSpec(f.endpoint(), f.forward(), 1, 0, 0);
            Optional<RealSpec> present = table.real(k, f.endpoint());
            if (present.isEmpty() || !present.get().equals(spec)) {
                apply(new TableCommand.SetReal(k, spec, present.isPresent(), true));
                changed(v, f.endpoint(), "Added fallback server: " + id(v, f.endpoint()) + " (Weight set to 1)",
                        false);
            }
        });
        v.virtual.fallbackCommand().ifPresent(cmd -> {
            log(Level.INFO, "Running fallbackcommand: " + cmd + " start " + k.address() + " "
                    + k.protocol().configName());
            out.add(new DirectorAction.Run(Programs.fallbackArgv(cmd, "start", k)));
        });
    }

    private void fallbackOff(VirtualState v) {
        if (!v.fallbackOn) {
            return;
        }
        v.fallbackOn = false;
        ServiceKey k = v.virtual.key();
        v.virtual.fallback().ifPresent(f -> {
            if (table.real(k, f.endpoint()).isPresent()) {
                apply(new TableCommand.DeleteReal(k, f.endpoint()));
                changed(v, f.endpoint(), "Deleted fallback server: " + id(v, f.endpoint()), false);
            }
        });
        v.virtual.fallbackCommand().ifPresent(cmd -> {
            log(Level.INFO, "Running fallbackcommand: " + cmd + " stop " + k.address() + " "
                    + k.protocol().configName());
            out.add(new DirectorAction.Run(Programs.fallbackArgv(cmd, "stop", k)));
        });
    }

    private static RealSpec spec(RealServer r) {
        return new RealSpec(r.endpoint(), r.forward(), r.weight(), r.upperThreshold(), r.lowerThreshold());
    }

    private void apply(TableCommand c) {
        table.apply(c);
        out.add(new DirectorAction.Apply(c));
    }

    private void log(Level level, String message) {
        out.add(new DirectorAction.Log(level, message));
    }

    /** A change of a real or fallback server: its log line, and the alert ldirectord sends with it. */
    private void changed(VirtualState v, Endpoint real, String message, boolean down) {
        log(Level.INFO, message);
        out.add(new DirectorAction.RealChanged(v.virtual.key().address(), real.toString(), down, message));
        alerts.send(v.virtual, real, message, down, status, config, out);
    }

    private List<DirectorAction> take() {
        List<DirectorAction> r = List.copyOf(out);
        out = new ArrayList<>();
        return r;
    }

    private static String label(ServiceKey k) {
        return k.protocol().configName() + " " + k.address();
    }

    private static String id(VirtualState v, Endpoint real) {
        return real + " (" + v.virtual.key().address() + ")";
    }
}
