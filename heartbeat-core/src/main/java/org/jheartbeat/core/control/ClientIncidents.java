package org.jheartbeat.core.control;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * Counts what went wrong with control-socket clients, per {@link Kind}, and rate-limits the log
 * lines to one per kind per {@link #LOG_INTERVAL_NANOS} (10 s), saying how many were suppressed
 * meanwhile (keepalived's {@code log_rate_limited_error} idea). The caller passes the monotonic time.
 * Thread-safe: the control server's worker threads share one instance.
 */
final class ClientIncidents {
    /** Minimum gap between two log lines of one kind, in ns (10 s). */
    static final long LOG_INTERVAL_NANOS = 10_000_000_000L;

    /** What a client did wrong, or what the server could not do for it. */
    enum Kind {
        /** The request line did not parse ({@link MalformedRequestException}). */
        MALFORMED,
        /** The client sent no complete request line within the read timeout. */
        SILENT,
        /** Every client slot was taken: the client got one error line and was closed. */
        BUSY,
        /** The client did not read its answer within the write timeout. */
        SLOW_READER,
        /** The client asked for a change it may not make ({@link ControlAccess}). */
        DENIED
    }

    private static final class Entry {
        long count;
        long suppressed;
        long lastLogNanos;
        boolean logged;
    }

    private final Map<Kind, Entry> entries = new EnumMap<>(Kind.class);

    ClientIncidents() {
        for (Kind k : Kind.values()) {
            entries.put(k, new Entry());
        }
    }

    /**
     * Counts one incident.
     *
     * @param kind     what happened
     * @param detail   one line saying what, for the log
     * @param nowNanos monotonic time, ns
     * @return the line to log, or empty when rate-limited
     */
    synchronized Optional<String> record(Kind kind, String detail, long nowNanos) {
        Entry e = entries.get(kind);
        e.count++;
        if (e.logged && nowNanos - e.lastLogNanos < LOG_INTERVAL_NANOS) {
            e.suppressed++;
            return Optional.empty();
        }
        String line = "control socket: " + detail
                + (e.suppressed > 0 ? " (" + e.suppressed + " more suppressed)" : "")
                + " [" + e.count + " so far]";
        e.logged = true;
        e.lastLogNanos = nowNanos;
        e.suppressed = 0;
        return Optional.of(line);
    }

    /** How many incidents of {@code kind} since start. */
    synchronized long count(Kind kind) {
        return entries.get(kind).count;
    }
}
