package org.jheartbeat.director.userspace.sched;

import java.util.List;

/**
 * wrr ({@code ip_vs_wrr.c}): a cursor, the current weight {@code cw}, {@code di} = gcd of the
 * weights &gt; 0 (1 if none) and {@code mw = max weight - (di - 1)}. From the cursor, walk forward
 * and take the first destination without the overload flag whose weight is at least {@code cw};
 * each pass over the list head lowers {@code cw} by {@code di}, back to {@code mw} at 0. Any add,
 * delete or edit recomputes {@code di} and {@code mw}, puts the cursor on the head, and sets
 * {@code cw = mw} if {@code cw > mw} or {@code cw == 0}, else (when {@code di > 1})
 * {@code cw = (cw / di) * di + 1}. Weights 4, 3, 2 give A A B A B C A B C.
 */
final class WeightedRoundRobin implements Scheduler {
    private final List<Dest> dests;
    /** Index of the last chosen destination; -1 = the list head. */
    private int cursor = -1;
    private int cw;
    private int mw;
    private int di;

    WeightedRoundRobin(List<Dest> dests) {
        this.dests = dests;
        recompute();
        cw = mw;
    }

    private void recompute() {
        int g = 0;
        int max = 0;
        for (Dest d : dests) {
            if (d.weight > 0) {
                g = g == 0 ? d.weight : gcd(d.weight, g);
            }
            max = Math.max(max, d.weight);
        }
        di = g == 0 ? 1 : g;
        mw = max - (di - 1);
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    private void changed() {
        cursor = -1;
        recompute();
        if (cw > mw || cw == 0) {
            cw = mw;
        } else if (di > 1) {
            cw = (cw / di) * di + 1;
        }
    }

    @Override
    public Dest schedule(Request request, long nowNanos) {
        if (mw <= 0) {
            return null;
        }
        boolean any = false;
        for (Dest d : dests) {
            any |= d.usable();
        }
        if (!any) {
            return null; // the kernel's "all destinations are overloaded" after a full pass at cw = 1
        }
        int i = cursor;
        while (true) {
            i++;
            if (i >= dests.size()) {
                i = -1;
                cw -= di;
                if (cw <= 0) {
                    cw = mw;
                }
                continue;
            }
            Dest d = dests.get(i);
            if (!d.overloaded && d.weight >= cw) {
                cursor = i;
                return d;
            }
        }
    }

    @Override
    public void added(Dest d) {
        changed();
    }

    @Override
    public void removed(Dest d, int formerIndex) {
        changed();
    }

    @Override
    public void updated(Dest d) {
        changed();
    }
}
