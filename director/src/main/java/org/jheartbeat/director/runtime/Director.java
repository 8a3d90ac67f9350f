package org.jheartbeat.director.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.alert.AlertMailer;
import org.jheartbeat.director.check.CheckResult;
import org.jheartbeat.director.check.CheckTarget;
import org.jheartbeat.director.check.HealthCheck;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.RealServer;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.table.BackendException;
import org.jheartbeat.director.table.ListView;
import org.jheartbeat.director.table.TableBackend;
import org.jheartbeat.director.table.TableCommand;
import org.jheartbeat.director.table.TableSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The director's shell: runs each virtual service's checks on its own schedule, feeds the
 * outcomes to the {@link DirectorKernel} on one decision thread and applies its commands through
 * the {@link TableBackend}.
 *
 * <p>Threads: one decision thread (kernel and backend), one timer thread (schedules passes and
 * cuts checks at their timeout), and a pool of daemon check threads. A pass of a service checks
 * all its reals in parallel; each check is bounded by the service's timeout
 * ({@link VirtualService#timeoutOfOneCheck()}): at the bound the check thread is interrupted and
 * the check counts as failed ("timed out"). The next pass starts {@code checkinterval} after the
 * previous one ended, as an ldirectord child with {@code fork = yes} sleeps after its pool.
 * A backend failure (after the backend's own retries) is logged with the commands not applied,
 * and the kernel is resynced with the table read back. E-mail alerts ({@link DirectorAction.Mail})
 * go to the {@link AlertMailer}'s own thread; after each pass the kernel is asked for the repeats
 * that are due ({@code emailalertfreq}).
 */
public final class Director implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("org.jheartbeat.director");
    /** Extra time granted to a check past its timeout before it is cut, in ms. */
    static final long CUT_GRACE_MS = 250;

    /** Figures about the check schedule. */
    public record Stats(long passes, long checks, long cut, long maxLagMillis, long maxPassMillis,
            long backendFailures) {
    }

    private final DirectorKernel kernel;
    private final AlertMailer mailer;
    private final TableBackend backend;
    private final CheckFactory checks;
    private final MonotonicClock clock;
    private final java.time.Clock wall;
    private final Consumer<DirectorAction> listener;
    private final ExecutorService decide = Executors.newSingleThreadExecutor(named("lvs-decide", false));
    private final ScheduledExecutorService timer = new ScheduledThreadPoolExecutor(1, named("lvs-timer", true));
    private final ExecutorService pool = Executors.newCachedThreadPool(named("lvs-check", true));
    private final Map<ServiceKey, Long> generation = new HashMap<>();
    /** One check instance per real, kept across passes (a combined check counts its passes). */
    private final Map<ServiceKey, Map<Endpoint, Optional<HealthCheck>>> instances = new HashMap<>();
    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong checksRun = new AtomicLong();
    private final AtomicLong cut = new AtomicLong();
    private final AtomicLong maxLag = new AtomicLong();
    private final AtomicLong maxPass = new AtomicLong();
    private final AtomicLong backendFailures = new AtomicLong();
    private volatile boolean stopped;

    /**
     * @param backend  the table
     * @param checks   makes the checks
     * @param clock    monotonic time for the figures
     * @param listener sees every action (log lines included) after it is carried out; tests use it
     */
    public Director(TableBackend backend, CheckFactory checks, MonotonicClock clock,
            Consumer<DirectorAction> listener) {
        this(backend, checks, clock, listener, AlertMailer.standard());
    }

    /**
     * @param backend  the table
     * @param checks   makes the checks
     * @param clock    monotonic time for the figures and the alert repeats
     * @param listener sees every action (log lines included) after it is carried out; tests use it
     * @param mailer   sends the alerts; closed with the director
     */
    public Director(TableBackend backend, CheckFactory checks, MonotonicClock clock,
            Consumer<DirectorAction> listener, AlertMailer mailer) {
        this(backend, checks, clock, listener, mailer, java.time.Clock.systemDefaultZone());
    }

    /** As above; {@code wall}: wall time, in its zone, for the {@code monitorfile} lines. */
    public Director(TableBackend backend, CheckFactory checks, MonotonicClock clock,
            Consumer<DirectorAction> listener, AlertMailer mailer, java.time.Clock wall) {
        this.wall = wall;
        this.kernel = new DirectorKernel(clock, backend.appliesRejoinRules());
        this.mailer = mailer;
        this.backend = backend;
        this.checks = checks;
        this.clock = clock;
        this.listener = listener;
    }

    private static ThreadFactory named(String prefix, boolean daemon) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(daemon);
            return t;
        };
    }

    /**
     * Reads the table, runs ldirectord's start sequence and schedules every service's first pass
     * at once.
     *
     * @throws BackendException if the table cannot be read (nothing was changed)
     */
    public void start(LdirectordConfig config) throws BackendException, InterruptedException {
        Future<BackendException> f = decide.submit(() -> {
            TableSnapshot current;
            try {
                current = backend.read();
            } catch (BackendException e) {
                return e;
            }
            LOG.info("Starting director for {} with {} virtual service(s) on the {} backend", config.file(),
                    config.virtuals().size(), backend.name());
            carryOut(kernel.start(config, current));
            for (VirtualService v : config.virtuals()) {
                schedule(v, 0);
            }
            return null;
        });
        BackendException e = await(f);
        if (e != null) {
            throw e;
        }
    }

    /** Applies a changed config (only what differs); services whose checks changed restart their schedule. */
    public void reload(LdirectordConfig config) throws InterruptedException {
        await(decide.submit(() -> {
            LdirectordConfig old = kernel.config();
            LOG.info("Reloading {}", config.file());
            carryOut(kernel.reload(config));
            for (VirtualService v : config.virtuals()) {
                Optional<VirtualService> before = old.virtual(v.key());
                if (before.isEmpty() || !before.get().equals(v)) {
                    instances.remove(v.key());
                    schedule(v, 0);
                }
            }
            for (VirtualService v : old.virtuals()) {
                if (config.virtual(v.key()).isEmpty()) {
                    generation.remove(v.key());
                    instances.remove(v.key());
                }
            }
            return null;
        }));
    }

    /** Stops checking and, per {@code cleanstop}, removes what the director put in the table. */
    public void stop() throws InterruptedException {
        if (stopped) {
            return;
        }
        stopped = true;
        timer.shutdownNow();
        pool.shutdownNow();
        await(decide.submit(() -> {
            carryOut(kernel.stop());
            return null;
        }));
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        decide.shutdown();
        decide.awaitTermination(10, TimeUnit.SECONDS);
        mailer.close();
    }

    /** The alerts' figures (sent, failed, dropped). */
    public AlertMailer.Stats alertStats() {
        return mailer.stats();
    }

    /** The configuration in force. */
    public LdirectordConfig config() throws InterruptedException {
        return await(decide.submit(kernel::config));
    }

    /** Which reals are up, per service. */
    public Map<ServiceKey, Map<Endpoint, Boolean>> upStates() throws InterruptedException {
        return await(decide.submit(kernel::upStates));
    }

    /** The table as the backend shows it, with figures. */
    public TableSnapshot status(ListView view, boolean connections) throws BackendException, InterruptedException {
        Future<Object> f = decide.submit(() -> {
            try {
                return backend.status(view, connections);
            } catch (BackendException e) {
                return e;
            }
        });
        Object r = await(f);
        if (r instanceof BackendException e) {
            throw e;
        }
        return (TableSnapshot) r;
    }

    /** Figures about the schedule so far. */
    public Stats stats() {
        return new Stats(passes.get(), checksRun.get(), cut.get(), maxLag.get(), maxPass.get(),
                backendFailures.get());
    }

    private static <T> T await(Future<T> f) throws InterruptedException {
        try {
            return f.get(5, TimeUnit.MINUTES);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("director task failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("director decision thread did not answer within 5 minutes");
        }
    }

    // ---- scheduling (decision thread) ----

    private void schedule(VirtualService v, long delayMillis) {
        if (stopped || "on".equals(v.checkType()) || "off".equals(v.checkType()) || v.reals().isEmpty()) {
            return;
        }
        long gen = generation.merge(v.key(), 1L, Long::sum);
        long planned = clock.nanoTime() + delayMillis * 1_000_000L;
        Optional<Path> maintenance = kernel.config() == null ? Optional.empty()
                : kernel.config().globals().maintenanceDir().map(Path::of);
        Map<Endpoint, Optional<HealthCheck>> checksOfV = instances.computeIfAbsent(v.key(), k -> {
            Map<Endpoint, Optional<HealthCheck>> m = new HashMap<>();
            for (RealServer r : v.reals()) {
                Optional<HealthCheck> c;
                try {
                    c = Optional.of(checks.create(v));
                } catch (IllegalArgumentException e) {
                    LOG.error("No check for virtual {}: {}", v.key().address(), e.getMessage());
                    c = Optional.empty();
                }
                m.put(r.endpoint(), c);
            }
            return Map.copyOf(m);
        });
        try {
            timer.schedule(() -> runPass(v, gen, planned, maintenance, checksOfV), delayMillis,
                    TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // stopping
        }
    }

    /** One pass over a service's reals (timer thread): start every check, cut those that hang. */
    private void runPass(VirtualService v, long gen, long plannedNanos, Optional<Path> maintenance,
            Map<Endpoint, Optional<HealthCheck>> instancesOfV) {
        long start = clock.nanoTime();
        maxLag.accumulateAndGet((start - plannedNanos) / 1_000_000L, Math::max);
        passes.incrementAndGet();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        Duration timeout = v.timeoutOfOneCheck();
        for (RealServer r : v.reals()) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            all.add(done);
            AtomicBoolean reported = new AtomicBoolean();
            Optional<HealthCheck> made = instancesOfV.getOrDefault(r.endpoint(), Optional.empty());
            if (made.isEmpty()) {
                report(v, gen, r, CheckResult.down("no check for checktype " + v.checkType() + " with service "
                        + v.service(), 0), reported, done);
                continue;
            }
            HealthCheck check = made.get();
            Optional<Path> flag = maintenance.flatMap(dir -> inMaintenance(dir, r));
            if (flag.isPresent()) {
                report(v, gen, r, CheckResult.down("in maintenance (" + flag.get() + " exists)", 0), reported, done);
                continue;
            }
            CheckTarget target = target(v, r);
            Future<?> running;
            try {
                running = pool.submit(() -> {
                    CheckResult res;
                    try {
                        res = check.check(target, timeout);
                    } catch (InterruptedException e) {
                        res = CheckResult.down("check timed out after " + timeout.toSeconds() + " s", 0);
                    } catch (RuntimeException e) {
                        res = CheckResult.down("check failed: " + e, 0);
                    }
                    checksRun.incrementAndGet();
                    report(v, gen, r, res, reported, done);
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                return;
            }
            try {
                timer.schedule(() -> {
                    if (!reported.get()) {
                        cut.incrementAndGet();
                        report(v, gen, r, CheckResult.down("check timed out after " + timeout.toSeconds() + " s"
                                + " (cut)", timeout.toMillis()), reported, done);
                        running.cancel(true);
                    }
                }, timeout.toMillis() + CUT_GRACE_MS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                return;
            }
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).whenComplete((x, e) -> {
            maxPass.accumulateAndGet((clock.nanoTime() - start) / 1_000_000L, Math::max);
            submit(() -> {
                if (!stopped) {
                    carryOut(kernel.due());
                }
                if (generation.getOrDefault(v.key(), -1L) == gen) {
                    generation.put(v.key(), gen - 1); // schedule() adds one back
                    schedule(v, v.checkInterval().toMillis());
                }
            });
        });
    }

    private void report(VirtualService v, long gen, RealServer r, CheckResult res, AtomicBoolean reported,
            CompletableFuture<Void> done) {
        if (!reported.compareAndSet(false, true)) {
            return;
        }
        submit(() -> {
            if (generation.getOrDefault(v.key(), -1L) == gen) {
                v.monitorFile().ifPresent(f -> monitor(Path.of(f), r, res));
                carryOut(kernel.checked(v.key(), r.endpoint(), res.up(), res.reason()));
            }
            done.complete(null);
        });
    }

    /**
     * {@code maintenancedir}: a file named {@code RIP:PORT} or {@code RIP} there forces the real down,
     * as ldirectord 4.x (its host-name forms are not looked up here).
     */
    static Optional<Path> inMaintenance(Path dir, RealServer r) {
        String ip = r.endpoint().host();
        for (String name : List.of(ip + ":" + r.endpoint().port(), ip)) {
            Path p = dir.resolve(name);
            if (Files.exists(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static final java.time.format.DateTimeFormatter MONITOR_TIME =
            java.time.format.DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", java.util.Locale.ROOT);

    /** {@code monitorfile}: one line per check, {@code [time] [pid] RIP PORT up|down message}. */
    private void monitor(Path file, RealServer r, CheckResult res) {
        String line = "[" + MONITOR_TIME.format(java.time.ZonedDateTime.now(wall)) + "] ["
                + ProcessHandle.current().pid() + "] " + r.endpoint().host() + " " + r.endpoint().port() + " "
                + (res.up() ? "up" : "down") + (res.up() ? "" : " " + res.reason()) + "\n";
        try {
            Files.writeString(file, line, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            LOG.warn("cannot append to monitorfile {}: {}", file, e.getMessage());
        }
    }

    private void submit(Runnable r) {
        try {
            decide.execute(r);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // stopping
        }
    }

    /** What a check of this real talks to, from the virtual's directives (the real's own request/receive first). */
    static CheckTarget target(VirtualService v, RealServer r) {
        int port = v.checkPortOf(r);
        org.jheartbeat.director.config.ServiceKey key = v.key();
        // an external check's arguments, as ldirectord passes them: vip (or the mark) vport rip rport
        String virtualService = key.endpoint().map(org.jheartbeat.director.config.Endpoint::host)
                .orElse(Long.toString(key.fwmark()));
        int virtualPort = key.endpoint().map(org.jheartbeat.director.config.Endpoint::port).orElse(0);
        String protocol = key.protocol() == org.jheartbeat.director.config.Protocol.UDP ? "udp" : "tcp";
        return new CheckTarget(r.endpoint().withPort(port).socketAddress(), r.request().or(v::request),
                r.receive().or(v::receive), v.virtualHost(), v.login(), v.passwd(), v.database(), v.secret(),
                v.httpMethod(), protocol, virtualService, virtualPort, r.endpoint().port(),
                Optional.of(v.checkCommand()), Math.max(1, v.checkCount()));
    }

    // ---- carrying out the kernel's actions (decision thread) ----

    private void carryOut(List<DirectorAction> actions) {
        List<TableCommand> batch = new ArrayList<>();
        List<DirectorAction> after = new ArrayList<>();
        for (DirectorAction a : actions) {
            if (a instanceof DirectorAction.Apply ap) {
                batch.add(ap.command());
            }
            after.add(a);
        }
        if (!batch.isEmpty()) {
            try {
                backend.apply(batch);
            } catch (BackendException e) {
                backendFailures.incrementAndGet();
                LOG.error("The {} backend did not apply {} change(s): {}", backend.name(), e.notApplied().size(),
                        e.getMessage());
                listener.accept(new DirectorAction.Log(DirectorAction.Level.ERROR, "backend failed: "
                        + e.getMessage()));
                scheduleRepair();
            }
        }
        for (DirectorAction a : after) {
            if (a instanceof DirectorAction.Log l) {
                switch (l.level()) {
                    case INFO -> LOG.info(l.message());
                    case WARN -> LOG.warn(l.message());
                    case ERROR -> LOG.error(l.message());
                }
            } else if (a instanceof DirectorAction.Run run) {
                Programs.start(run.argv());
            } else if (a instanceof DirectorAction.Mail mail) {
                mailer.send(mail.alert());
            } else if (a instanceof DirectorAction.Rejoin rejoin) {
                backend.rejoinRules(rejoin.service(), rejoin.policy());
            }
            listener.accept(a);
        }
    }

    private boolean repairScheduled;
    private long repairDelayMillis = 500;

    /**
     * After a failure, re-reads the table and applies what the owned services lack, first after
     * 0.5 s, then backing off to 30 s between attempts while it keeps failing (decision thread).
     */
    private void scheduleRepair() {
        if (repairScheduled || stopped) {
            return;
        }
        repairScheduled = true;
        long delay = repairDelayMillis;
        repairDelayMillis = Math.min(30_000, repairDelayMillis * 2);
        try {
            timer.schedule(() -> submit(() -> {
                repairScheduled = false;
                long failuresBefore = backendFailures.get();
                try {
                    carryOut(kernel.repair(backend.read()));
                } catch (BackendException e) {
                    backendFailures.incrementAndGet();
                    LOG.error("Cannot read the table back after a failure: {}", e.getMessage());
                    scheduleRepair();
                    return;
                }
                if (backendFailures.get() == failuresBefore) {
                    repairDelayMillis = 500;
                }
            }), delay, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            repairScheduled = false;
        }
    }
}
