package org.jheartbeat.core.protocol;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Counts packets dropped because they did not authenticate or parse, per source (e.g.
 * {@code 198.18.1.2:41234 on eth1}), and rate-limits their log lines to one per source per
 * {@link #LOG_INTERVAL_NANOS} (10 s), reporting how many were suppressed meanwhile. Pure; the caller
 * passes the time. At most {@value #MAX_SOURCES} sources are tracked; the oldest is forgotten first.
 */
public final class BadPacketCounter {
    /** Minimum gap between two log lines for one source, in ns (10 s). */
    public static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
    /** How many distinct sources are remembered. */
    public static final int MAX_SOURCES = 256;

    private static final class Entry {
        long count;
        long lastLogNanos;
        long suppressed;
        boolean logged;
    }

    private final Map<String, Entry> bySource = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > MAX_SOURCES;
        }
    };
    private long total;

    /**
     * Counts one bad packet.
     *
     * @param source where it came from
     * @param reason why it was dropped
     * @return the line to log, or empty when rate-limited
     */
    public Optional<String> record(String source, String reason, long nowNanos) {
        total++;
        Entry e = bySource.computeIfAbsent(source, k -> new Entry());
        e.count++;
        if (e.logged && nowNanos - e.lastLogNanos < LOG_INTERVAL_NANOS) {
            e.suppressed++;
            return Optional.empty();
        }
        String line = "Dropped bad packet from " + source + ": " + reason
                + (e.suppressed > 0 ? " (" + e.suppressed + " more suppressed)" : "")
                + " [" + e.count + " from this source so far]";
        e.logged = true;
        e.lastLogNanos = nowNanos;
        e.suppressed = 0;
        return Optional.of(line);
    }

    /** Total bad packets since start. */
    public long total() {
        return total;
    }

    /** Bad-packet count per source, most recently seen last. */
    public Map<String, Long> bySource() {
        Map<String, Long> out = new LinkedHashMap<>();
        bySource.forEach((k, v) -> out.put(k, v.count));
        return out;
    }
}
