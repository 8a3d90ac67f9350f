package org.jheartbeat.cli.alert;

import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.Map;
import org.jheartbeat.core.journal.EventKind;

/**
 * A rule's rate limit, pure: at most {@code count} alerts in any window of {@code perNanos} (a sliding
 * window over the times of the alerts let through). An event beyond it is counted by kind, and the next
 * alert let through carries the count ({@link #admit} returns it), so nothing happens unseen: Pacemaker
 * has no rate limit; keepalived's notify has none either; this is the one syslog-style "N more" summary
 * admins expect from a mailer. Not thread-safe: the dispatcher calls it under its rule's lock.
 */
public final class RateWindow {
    /** What was held back since the last alert let through: how many, and how many of each kind. */
    public record Held(int total, Map<EventKind, Integer> byKind) {
        /** Nothing held back. */
        public static final Held NONE = new Held(0, Map.of());

        public Held {
            byKind = Map.copyOf(byKind);
        }

        /** {@code node-dead x1, link-down x2}, in the kinds' order; empty when nothing. */
        public String summary() {
            StringBuilder b = new StringBuilder();
            for (EventKind k : EventKind.values()) {
                Integer n = byKind.get(k);
                if (n != null) {
                    b.append(b.length() == 0 ? "" : ", ").append(k.wire()).append(" x").append(n);
                }
            }
            return b.toString();
        }
    }

    private final int count;
    private final long perNanos;
    private final ArrayDeque<Long> sent = new ArrayDeque<>();
    private final EnumMap<EventKind, Integer> held = new EnumMap<>(EventKind.class);
    private int heldTotal;

    /**
     * @param count    at most this many, at least 1 ({@link Integer#MAX_VALUE}: no limit)
     * @param perNanos in any window this long, in ns
     */
    public RateWindow(int count, long perNanos) {
        if (count < 1 || perNanos <= 0) {
            throw new IllegalArgumentException("rate " + count + " per " + perNanos + " ns");
        }
        this.count = count;
        this.perNanos = perNanos;
    }

    /** No limit: every event goes out, and only {@link #hold} adds to a summary. */
    public static RateWindow unlimited() {
        return new RateWindow(Integer.MAX_VALUE, Long.MAX_VALUE / 4);
    }

    /**
     * Whether an event of {@code kind} at {@code nowNanos} (monotonic) may go out.
     *
     * @return null if it is held back (and counted); else what was held back before it, now reset
     */
    public Held admit(EventKind kind, long nowNanos) {
        while (!sent.isEmpty() && nowNanos - sent.peekFirst() >= perNanos) {
            sent.pollFirst();
        }
        if (sent.size() >= count) {
            hold(kind);
            return null;
        }
        sent.addLast(nowNanos);
        Held h = heldTotal == 0 ? Held.NONE : new Held(heldTotal, held);
        held.clear();
        heldTotal = 0;
        return h;
    }

    /** Counts an event that did not go out for another reason (its queue was full). */
    public void hold(EventKind kind) {
        held.merge(kind, 1, Integer::sum);
        heldTotal++;
    }
}
