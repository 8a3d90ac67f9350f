package org.jheartbeat.core.protocol;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * Counts authenticated frames dropped because they are from before: an older generation of the peer,
 * a sequence number behind the window, our own name (our own frames echoed back, or left in a
 * line by our previous run), or a frame its link already carried (a replay). Heartbeat 3.0.6 drops these in {@code should_drop_message} without
 * touching link or node status; so do we, and this counter only makes them visible: one debug line
 * per {@link #LOG_INTERVAL_NANOS} (10 s) at most, with how many were dropped since the last line.
 * Pure; the caller passes the time.
 */
public final class StaleFrameCounter {
    /** Minimum gap between two debug lines, in ns (10 s). */
    public static final long LOG_INTERVAL_NANOS = 10_000_000_000L;

    /** Why a frame was dropped. */
    public enum Reason {
        /** Generation lower than the newest seen from that node. */
        OLD_GENERATION("older generation"),
        /** Current generation, sequence number behind the window. */
        STALE_SEQUENCE("sequence number behind the window"),
        /** Carries our own node name. */
        OWN_FRAME("our own node name"),
        /** A frame the same link already carried (or an older one): duplicated on the way, or replayed. */
        REPEATED_ON_LINK("already received on that link");

        private final String text;

        Reason(String text) {
            this.text = text;
        }
    }

    private final Map<Reason, Long> counts = new EnumMap<>(Reason.class);
    private long total;
    private long sinceLastLine;
    private long lastLineNanos;
    private boolean logged;

    /**
     * Counts one dropped frame.
     *
     * @param detail e.g. {@code node2 gen 5 seq 12 (tracking gen 6)}
     * @return the debug line to log, or empty when rate-limited
     */
    public Optional<String> record(Reason reason, String detail, long nowNanos) {
        total++;
        sinceLastLine++;
        counts.merge(reason, 1L, Long::sum);
        if (logged && nowNanos - lastLineNanos < LOG_INTERVAL_NANOS) {
            return Optional.empty();
        }
        String line = "Dropped frame from before (" + reason.text + "): " + detail
                + (sinceLastLine > 1 ? " (" + sinceLastLine + " dropped since the last such line)" : "")
                + " [" + total + " since start]";
        logged = true;
        lastLineNanos = nowNanos;
        sinceLastLine = 0;
        return Optional.of(line);
    }

    /** Frames dropped since start, all reasons. */
    public long total() {
        return total;
    }

    /** Frames dropped since start for {@code reason}. */
    public long count(Reason reason) {
        return counts.getOrDefault(reason, 0L);
    }
}
