package org.jheartbeat.resources.monitor;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Fail counts of the resources of one node, and the verdict on each monitor failure: a pure kernel on
 * monotonic nanoseconds given by the caller (no clock inside, not thread-safe: one owner).
 *
 * <p>As Pacemaker's fail count with {@code failure-timeout}: a failure counts for {@code window} after
 * it happened; while fewer than {@code maxRestarts} counted failures came before it, a failure is
 * answered by a restart in place; the next one moves the group. An operator's cleanup
 * ({@code hb resources cleanup GROUP}) forgets a resource's failures.
 */
public final class FailCounts {
    /** One failure: when (monotonic ns) and what the monitor said. */
    public record Failure(long atNanos, String detail) {
        public Failure {
            Objects.requireNonNull(detail, "detail");
        }
    }

    private final Map<String, Deque<Failure>> failures = new LinkedHashMap<>();
    private final Map<String, Failure> last = new LinkedHashMap<>();

    /**
     * Records a failed monitor of {@code resource} and says what to do.
     *
     * @param resource the resource's id (its haresources token, unique on the node)
     * @param settings how it is watched
     * @param nowNanos monotonic time of the failure, ns
     * @param detail   what the monitor said (exit code, output), for {@code hb status}
     * @return restart in place, or move the group once {@code maxRestarts} failures counted before this one
     */
    public MonitorVerdict onFailure(String resource, MonitorSettings settings, long nowNanos, String detail) {
        Deque<Failure> q = failures.computeIfAbsent(resource, r -> new ArrayDeque<>());
        expire(q, settings, nowNanos);
        int before = q.size();
        Failure f = new Failure(nowNanos, detail);
        q.addLast(f);
        last.put(resource, f);
        return before >= settings.maxRestarts() ? MonitorVerdict.MOVE_GROUP : MonitorVerdict.RESTART_IN_PLACE;
    }

    /** Failures of {@code resource} that still count at {@code nowNanos} (within the window). */
    public int failCount(String resource, MonitorSettings settings, long nowNanos) {
        Deque<Failure> q = failures.get(resource);
        if (q == null) {
            return 0;
        }
        expire(q, settings, nowNanos);
        return q.size();
    }

    /** The latest failure of {@code resource}, even one that no longer counts; empty after a cleanup. */
    public Optional<Failure> lastFailure(String resource) {
        return Optional.ofNullable(last.get(resource));
    }

    /** Forgets the failures of {@code resource} (operator cleanup). */
    public void clear(String resource) {
        failures.remove(resource);
        last.remove(resource);
    }

    private static void expire(Deque<Failure> q, MonitorSettings settings, long nowNanos) {
        long window = settings.window().toNanos();
        while (!q.isEmpty() && nowNanos - q.peekFirst().atNanos() >= window) {
            q.removeFirst();
        }
    }
}
