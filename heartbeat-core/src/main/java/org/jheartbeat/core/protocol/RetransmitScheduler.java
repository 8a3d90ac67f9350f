package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * When to ask the peer for each missing packet ({@code NS_rexmit}), as Heartbeat 3.0.6 does with its
 * {@code max_rexmit_delay} default: the first request 50..250 ms after the gap is seen (Heartbeat
 * draws the delay at random; here it is spread by sequence number, so runs repeat), then every
 * 250 ms until the packet arrives, the peer says it is gone ({@code NS_nak_rexmit}), or the peer
 * dies; at most {@value #PER_TICK} requests per timer tick. Pure: times are monotonic nanoseconds
 * given by the caller; not thread-safe (the engine's thread owns it).
 */
final class RetransmitScheduler {
    /** Repeat interval of a request, in ns. */
    static final long INTERVAL_NANOS = 250_000_000L;
    /** Earliest first request after a gap, in ns. */
    static final long FIRST_MIN_NANOS = 50_000_000L;
    /** At most this many requests per timer tick. */
    static final int PER_TICK = 50;

    /** Missing sequence number → when to (re)request it. */
    private final TreeMap<Long, Long> due = new TreeMap<>();

    /**
     * Follows the sequence tracker's missing set: numbers no longer missing are forgotten, new ones
     * get their first request time.
     *
     * @return true when something was missing before and nothing is now (the last gap closed)
     */
    boolean track(Collection<Long> missing, long nowNanos) {
        boolean hadMissing = !due.isEmpty();
        due.keySet().retainAll(missing);
        for (long m : missing) {
            due.putIfAbsent(m, nowNanos + FIRST_MIN_NANOS + (m * 37 % 200) * 1_000_000L);
        }
        return hadMissing && due.isEmpty();
    }

    /** Forgets everything (the peer restarted or died). */
    void clear() {
        due.clear();
    }

    /** The peer said {@code seq} cannot be sent again: stop asking for it. */
    void giveUp(long seq) {
        due.remove(seq);
    }

    /**
     * The numbers to request now (at most {@value #PER_TICK}, lowest first); each is rescheduled one
     * interval later.
     */
    List<Long> dueNow(long nowNanos) {
        List<Long> out = new ArrayList<>();
        for (Map.Entry<Long, Long> e : due.entrySet()) {
            if (e.getValue() <= nowNanos && out.size() < PER_TICK) {
                out.add(e.getKey());
                e.setValue(nowNanos + INTERVAL_NANOS);
            }
        }
        return out;
    }

    /** The earliest time a request is due, or {@link Long#MAX_VALUE}. */
    long nextDeadlineNanos() {
        long t = Long.MAX_VALUE;
        for (long d : due.values()) {
            t = Math.min(t, d);
        }
        return t;
    }

    /** Whether nothing is missing. */
    boolean isEmpty() {
        return due.isEmpty();
    }
}
