package org.jheartbeat.director.userspace.sched;

import java.util.List;

/**
 * rr ({@code ip_vs_rr.c}): from the entry after the cursor, walk the circular list (the cursor's
 * own entry last) and take the first destination with weight &gt; 0 and no overload flag; the
 * cursor moves there. Deleting the cursor's entry moves the cursor to its predecessor.
 */
final class RoundRobin implements Scheduler {
    private final List<Dest> dests;
    /** The last chosen destination; null = the list head. */
    private Dest cursor;

    RoundRobin(List<Dest> dests) {
        this.dests = dests;
    }

    @Override
    public Dest schedule(Request request, long nowNanos) {
        int n = dests.size();
        int start = cursor == null ? -1 : dests.indexOf(cursor);
        // from the head: one pass; from an entry: a full lap that ends on that entry
        for (int k = 0; k < n; k++) {
            int i = (start + 1 + k) % n;
            Dest d = dests.get(i);
            if (d.usable()) {
                cursor = d;
                return d;
            }
        }
        return null;
    }

    @Override
    public void removed(Dest d, int formerIndex) {
        if (d == cursor) {
            cursor = formerIndex == 0 ? null : dests.get(formerIndex - 1);
        }
    }
}
