package org.jheartbeat.core.loop;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the cluster loop beating whatever one of its steps throws. The loop runs every engine step,
 * every effect (each medium's send apart), every log line, every posted result and every scheduled
 * task through {@link #run}: a {@link RuntimeException} there is counted, logged once per kind (the
 * exception's class and where it happened, e.g. {@code IllegalStateException executing StartGroup},
 * with its stack trace; later ones of that kind only counted) and the loop goes on with the next
 * step. A node that stops beating while its process lives holds its groups for ever: the peer sees
 * it dead and takes over (or fences it), while a service manager that watches only the process
 * restarts nothing. An {@link Error} (out of memory, stack overflow) leaves the JVM in no state to
 * trust: it goes to the {@link FatalHandler}, which ends the process with a non-zero status so the
 * service manager restarts it (the unit's {@code Restart=on-failure}); the new daemon releases what
 * it finds running before its first beat.
 *
 * <p>Thread-safe: the loop thread is the usual caller, but counts are read for {@code hb status}.
 */
public final class LoopGuard {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    /** The status the default {@link FatalHandler} ends the process with: a runtime failure (restarted). */
    public static final int FATAL_EXIT_STATUS = 1;
    /** How many kinds of error are counted apart; further kinds are counted under {@value #OTHER_KINDS}. */
    public static final int MAX_KINDS = 32;
    /** The kind under which errors past {@link #MAX_KINDS} kinds are counted. */
    public static final String OTHER_KINDS = "other kinds";

    /** What to do when an {@link Error} reaches the loop. */
    @FunctionalInterface
    public interface FatalHandler {
        /**
         * Ends the process (in production this never returns).
         *
         * @param status the non-zero exit status to end it with
         * @param where  what the loop was doing, e.g. {@code executing StartGroup}
         * @param error  what was thrown
         */
        void fatal(int status, String where, Error error);

        /** {@link #halting} with nothing to do before the halt. */
        FatalHandler HALT = halting(() -> { });

        /**
         * Logs one CRIT line, runs {@code beforeHalt} (the daemon: write out the queued log lines), then
         * {@link Runtime#halt}s with the status, whatever happened before: not {@link System#exit}, whose
         * shutdown hooks could wait on a broken JVM or on the loop thread itself.
         */
        static FatalHandler halting(Runnable beforeHalt) {
            return (status, where, error) -> {
                try {
                    LOG.error(ClusterLoop.CRIT, "Fatal error in the cluster loop ({}): {}; exiting with status {} so"
                            + " that the service manager restarts the daemon", where, error, status, error);
                    beforeHalt.run();
                } finally {
                    Runtime.getRuntime().halt(status);
                }
            };
        }
    }

    private final AtomicLong errors = new AtomicLong();
    /** Kind → count, in order of first occurrence; guarded by itself. */
    private final Map<String, Long> byKind = new LinkedHashMap<>();
    private volatile FatalHandler fatal = FatalHandler.HALT;

    /** Replaces the {@link FatalHandler} ({@link FatalHandler#HALT} until then). */
    public void onFatal(FatalHandler handler) {
        this.fatal = java.util.Objects.requireNonNull(handler, "handler");
    }

    /**
     * Runs {@code task}; whatever it throws is handled as the class comment says.
     *
     * @param where what the task does, for the kind and the log (a fixed phrase, not data: kinds are bounded)
     * @return whether the task ran to its end
     */
    public boolean run(String where, Runnable task) {
        try {
            task.run();
            return true;
        } catch (Throwable t) {
            failed(where, t);
            return false;
        }
    }

    /** {@code task} wrapped in {@link #run}, for executors and timers. */
    public Runnable wrap(String where, Runnable task) {
        return () -> run(where, task);
    }

    /** What {@code value} returns, or {@code fallback} when it throws (handled as {@link #run} does). */
    public <T> T value(String where, Supplier<T> value, T fallback) {
        try {
            return value.get();
        } catch (Throwable t) {
            failed(where, t);
            return fallback;
        }
    }

    /**
     * Starts an operation whose result is posted back: what {@code operation} returns, or, when it
     * throws (handled as {@link #run} does) or returns null, a future failed with what it threw (or an
     * {@link IllegalStateException}), so the caller still learns the operation's end: a group start
     * that threw is a failed start, not one in progress for ever.
     */
    public <T> CompletableFuture<T> start(String where, Supplier<CompletableFuture<T>> operation) {
        try {
            CompletableFuture<T> f = operation.get();
            return f != null ? f : CompletableFuture.failedFuture(new IllegalStateException(where + ": no result"));
        } catch (Throwable t) {
            failed(where, t);
            return CompletableFuture.failedFuture(t);
        }
    }

    private void failed(String where, Throwable t) {
        errors.incrementAndGet();
        boolean first = false;
        try {
            String kind = (t.getClass().getSimpleName().isEmpty() ? t.getClass().getName()
                    : t.getClass().getSimpleName()) + " " + where;
            synchronized (byKind) {
                String key = byKind.containsKey(kind) || byKind.size() < MAX_KINDS ? kind : OTHER_KINDS;
                first = !byKind.containsKey(key);
                byKind.merge(key, 1L, Long::sum);
            }
        } finally {
            // first of all for an Error: counting may itself run out of memory
            if (t instanceof Error e) {
                fatal.fatal(FATAL_EXIT_STATUS, where, e);
            }
        }
        if (first && !(t instanceof Error)) {
            try {
                LOG.error("Internal error in the cluster loop, {}: {}; the loop goes on (further errors of this kind"
                        + " are only counted: hb status, Internal errors)", where, t.toString(), t);
            } catch (RuntimeException logFailed) {
                // the log itself may be what fails; the count above is what hb status shows
            }
        }
    }

    /** Errors caught since start, {@link Error}s included. */
    public long errors() {
        return errors.get();
    }

    /** Errors caught since start by kind ({@code ExceptionClass where}), in order of first occurrence. */
    public Map<String, Long> errorsByKind() {
        synchronized (byKind) {
            return new LinkedHashMap<>(byKind);
        }
    }
}
