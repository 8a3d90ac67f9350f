package org.jheartbeat.resources.monitor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.ResourceAgents;
import org.jheartbeat.resources.group.GroupResult;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the resources of one running group (docs/design/resources.md,
 * "Monitoring"), as Pacemaker's recurring {@code monitor} operation with {@code on-fail=restart}:
 * each watched resource's status is asked every {@link MonitorSettings#interval()} (counted from the
 * end of its previous check). Anything but "running" (stopped, failed, or a status that timed out,
 * which the agent reports as failed) is a failure, counted by {@link FailCounts}; while restarts are
 * left, the failed resource and those to its right are stopped right to left and started again left
 * to right (a Pacemaker group's restart); when they are used up, or the restart fails, the whole
 * group must leave this node: {@link #runDue} says {@link Result#GIVE_UP} and the caller tells the
 * takeover machine.
 *
 * <p>After a start ({@link #startedAt}, not an adoption: {@link #adoptedAt}) the group counts as
 * <em>served</em> once every watched resource has answered "running" to one check: the check that
 * completes that pass says so ({@link Check#servedAfterNanos()}), once per start. The daemon records it
 * as {@code group-served}, the last step of a failover on the console's timeline (docs/design/observability.md).
 *
 * <p>Blocking (it runs agents): call it on the group's own serial worker, never on the cluster loop
 * thread, so it never overlaps a start or stop of the same group. Time comes from the injected
 * monotonic clock, so tests drive it without sleeping. {@link #startedAt}, {@link #stopped} and
 * {@link #runDue} belong to that one worker; {@link #failures} and {@link #clear} may be called from
 * any thread.
 */
public final class GroupMonitor {
    private static final org.slf4j.Marker CRIT = ResourceGroupRunner.CRIT;
    private static final Logger LOG = LoggerFactory.getLogger(GroupMonitor.class);

    /** What one {@link #runDue} call did. */
    public enum Result {
        /** Every resource that was due is running (or none was due, or the group is not watched now). */
        ALL_WELL,
        /** A resource failed and was restarted in place; it runs again. */
        RESTARTED,
        /** A resource failed beyond repair here: the whole group must leave this node. Watching stopped. */
        GIVE_UP
    }

    /**
     * The outcome of {@link #runDue}.
     *
     * @param result what happened
     * @param detail for {@link Result#GIVE_UP}: which resource failed and how (for the takeover
     *               machine's CRIT and {@code hb status}); for {@link Result#RESTARTED}: which resource was
     *               restarted and why (for the event journal); for a check that completed the first pass
     *               after a start: the watched resources, found running; otherwise empty
     * @param servedAfterNanos when this check completed the first pass after a start in which every watched
     *               resource answered "running": ns from the start's end to now; otherwise -1
     */
    public record Check(Result result, String detail, long servedAfterNanos) {
        public Check {
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(detail, "detail");
        }

        /** A check that did not complete the first pass after a start. */
        public Check(Result result, String detail) {
            this(result, detail, -1);
        }
    }

    /**
     * One watched resource as {@code hb status} shows it.
     *
     * @param resource     the resource's haresources token
     * @param settings     how it is watched
     * @param failCount    failures that count now (within the window)
     * @param lastFailure  the latest failure's text, empty if none since start or the last cleanup
     * @param lastFailureAge how long ago the latest failure was, or {@link Duration#ZERO} when none
     */
    public record ResourceWatch(String resource, MonitorSettings settings, int failCount, String lastFailure,
                                Duration lastFailureAge) { }

    private final ResourceGroupDecl group;
    private final ResourceAgents agents;
    private final ResourceGroupRunner runner;
    private final MonotonicClock clock;
    private final MonitorSettings[] settings;
    private final long[] dueNanos;
    /** Per resource: answered "running" since the start (only while {@link #servedPending}). */
    private final boolean[] seenRunning;
    private final FailCounts counts = new FailCounts();
    private boolean watching;
    /** Started (not adopted) and not every watched resource has answered "running" since. */
    private boolean servedPending;
    private long startedNanos;

    /**
     * @param group    the group (its resources, in order)
     * @param agents   turns tokens into agents
     * @param runner   restarts resources (its stop retries apply)
     * @param settings how each resource is watched; empty for one that is not watched
     *                 ({@link MonitorSettings#forResource})
     * @param clock    monotonic time
     */
    public GroupMonitor(ResourceGroupDecl group, ResourceAgents agents, ResourceGroupRunner runner,
                        Function<ResourceSpec, Optional<MonitorSettings>> settings, MonotonicClock clock) {
        this.group = Objects.requireNonNull(group, "group");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.clock = Objects.requireNonNull(clock, "clock");
        List<ResourceSpec> rs = group.resources();
        this.settings = new MonitorSettings[rs.size()];
        for (int k = 0; k < rs.size(); k++) {
            this.settings[k] = settings.apply(rs.get(k)).orElse(null);
        }
        this.dueNanos = new long[rs.size()];
        this.seenRunning = new boolean[rs.size()];
        Arrays.fill(dueNanos, Long.MAX_VALUE);
    }

    /** Whether any resource of the group is watched at all. */
    public boolean watchesAnything() {
        return Arrays.stream(settings).anyMatch(Objects::nonNull);
    }

    /**
     * The group runs here now (its start succeeded): each watched resource is first checked one
     * interval from {@code nowNanos}, as Pacemaker schedules a recurring monitor after a start. The
     * first pass that finds every watched resource running reports it served ({@link Check#servedAfterNanos()}).
     *
     * @param nowNanos monotonic time of the start's end, ns
     */
    public void startedAt(long nowNanos) {
        adoptedAt(nowNanos);
        servedPending = true;
        startedNanos = nowNanos;
    }

    /**
     * The group runs here without having been started here (adopted when its maintenance ended): watched as
     * after {@link #startedAt}, but no check reports it served (there was no start to follow).
     *
     * @param nowNanos monotonic time, ns
     */
    public void adoptedAt(long nowNanos) {
        watching = true;
        servedPending = false;
        Arrays.fill(seenRunning, false);
        for (int k = 0; k < settings.length; k++) {
            dueNanos[k] = settings[k] == null ? Long.MAX_VALUE : nowNanos + settings[k].interval().toNanos();
        }
    }

    /** The group is being stopped, or has left: nothing is checked until {@link #startedAt}. */
    public void stopped() {
        watching = false;
        servedPending = false;
        Arrays.fill(dueNanos, Long.MAX_VALUE);
    }

    /** Whether the group is watched now (started and not stopped or given up since). */
    public boolean watching() {
        return watching;
    }

    /** When the next check is due (monotonic ns), or {@link Long#MAX_VALUE} when nothing is watched now. */
    public long nextDueNanos() {
        long next = Long.MAX_VALUE;
        for (long d : dueNanos) {
            next = Math.min(next, d);
        }
        return next;
    }

    /**
     * Checks every resource that is due at the clock's current time, left to right, and acts on the
     * first failure (restart in place, or give up). Blocks for as long as the agents take.
     *
     * @return what was done
     */
    public Check runDue() {
        if (!watching) {
            return new Check(Result.ALL_WELL, "");
        }
        List<ResourceSpec> rs = group.resources();
        for (int k = 0; k < rs.size(); k++) {
            if (settings[k] == null || dueNanos[k] > clock.nanoTime()) {
                continue;
            }
            ResourceSpec spec = rs.get(k);
            AgentResult status;
            try {
                status = agents.forSpec(spec).status();
            } catch (ResourceAgentException e) {
                status = AgentResult.failed(e.getMessage(), AgentResult.NO_EXIT_CODE);
            }
            long now = clock.nanoTime();
            if (status.isRunning()) {
                dueNanos[k] = now + settings[k].interval().toNanos();
                seenRunning[k] = true;
                continue;
            }
            return onFailure(k, spec, status, now);
        }
        return servedPending ? servedCheck() : new Check(Result.ALL_WELL, "");
    }

    /** ALL_WELL; served (once per start) when every watched resource has now answered "running" since the start. */
    private Check servedCheck() {
        List<String> seen = new ArrayList<>();
        for (int k = 0; k < settings.length; k++) {
            if (settings[k] != null && !seenRunning[k]) {
                return new Check(Result.ALL_WELL, "");
            }
            if (settings[k] != null) {
                seen.add(group.resources().get(k).token());
            }
        }
        if (seen.isEmpty()) { // nothing watched: nothing can tell that the group serves
            return new Check(Result.ALL_WELL, "");
        }
        servedPending = false;
        return new Check(Result.ALL_WELL, String.join(", ", seen) + " running",
                Math.max(0, clock.nanoTime() - startedNanos));
    }

    private Check onFailure(int k, ResourceSpec spec, AgentResult status, long now) {
        MonitorSettings s = settings[k];
        String what = (status.outcome() == AgentOutcome.STOPPED ? "not running" : "failed")
                + (status.message().isEmpty() ? "" : " (" + status.message() + ")");
        MonitorVerdict verdict;
        int count;
        synchronized (counts) {
            verdict = counts.onFailure(spec.token(), s, now, what);
            count = counts.failCount(spec.token(), s, now);
        }
        String limit = "fail count " + count + ", restart limit " + s.maxRestarts() + " within " + human(s.window());
        LOG.error(CRIT, "Resource {} failed its monitor: {}; {}", spec.token(), what, limit);
        if (verdict == MonitorVerdict.MOVE_GROUP) {
            stopped();
            LOG.error(CRIT, "Resource {} failed {} time(s) within {}: no restart left; resource group {} leaves this"
                    + " node", spec.token(), count, human(s.window()), group.key());
            return new Check(Result.GIVE_UP, "resource " + spec.token() + " " + what + ", " + limit
                    + " used up");
        }
        List<ResourceSpec> tail = tailFrom(k);
        ResourceGroupDecl part = new ResourceGroupDecl(group.preferredNode(), tail, group.line());
        LOG.warn("Restarting resource {} in place (restart {} of {}){}", spec.token(), count, s.maxRestarts(),
                tail.size() > 1 ? ", with the resources that depend on it: " + tail.subList(1, tail.size()) : "");
        GroupResult stop = runner.stop(part);
        GroupResult start = stop.success() ? runner.start(part) : stop;
        if (!start.success()) {
            stopped();
            LOG.error(CRIT, "Restart of resource {} failed: {}; resource group {} leaves this node", spec.token(),
                    start.message(), group.key());
            return new Check(Result.GIVE_UP, "resource " + spec.token() + " " + what + " and its restart failed: "
                    + start.message());
        }
        long after = clock.nanoTime();
        for (int j = k; j < settings.length; j++) {
            if (settings[j] != null) {
                dueNanos[j] = after + settings[j].interval().toNanos();
            }
        }
        LOG.info("Resource {} restarted in place", spec.token());
        return new Check(Result.RESTARTED, "resource " + spec.token() + " " + what + ", restarted in place (" + limit
                + ")");
    }

    private List<ResourceSpec> tailFrom(int from) {
        return new ArrayList<>(group.resources().subList(from, group.resources().size()));
    }

    /** Every watched resource with its fail count at the clock's current time, in group order. */
    public List<ResourceWatch> failures() {
        List<ResourceWatch> out = new ArrayList<>();
        long now = clock.nanoTime();
        synchronized (counts) {
            for (int k = 0; k < settings.length; k++) {
                if (settings[k] == null) {
                    continue;
                }
                String token = group.resources().get(k).token();
                Optional<FailCounts.Failure> last = counts.lastFailure(token);
                out.add(new ResourceWatch(token, settings[k], counts.failCount(token, settings[k], now),
                        last.map(FailCounts.Failure::detail).orElse(""),
                        last.map(f -> Duration.ofNanos(Math.max(0, now - f.atNanos()))).orElse(Duration.ZERO)));
            }
        }
        return out;
    }

    /** Forgets every failure of this group's resources (operator cleanup). Any thread. */
    public void clear() {
        synchronized (counts) {
            for (ResourceSpec spec : group.resources()) {
                counts.clear(spec.token());
            }
        }
    }

    /** {@code 10 s}, {@code 10 min}, {@code 1500 ms}: a duration as the log and status print it. */
    public static String human(Duration d) {
        long ms = d.toMillis();
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + " min";
        }
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
