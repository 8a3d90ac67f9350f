package org.jheartbeat.director.userspace.sched;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * lblc and lblcr ({@code ip_vs_lblc.c}, {@code ip_vs_lblcr.c}): a table keyed by the packet's
 * destination address (for an ordinary service, always the VIP).
 *
 * <p>lblc: an entry's destination is kept while it is AVAILABLE, has weight &gt; 0 and is not
 * "overloaded" ({@code active > weight} while some destination has {@code active × 2 < weight});
 * otherwise the wlc winner replaces it. lblcr: the entry holds a set (newest member first); the
 * wlc minimum over its AVAILABLE, weight &gt; 0, non-overload-flagged members is used unless
 * "overloaded", in which case the service's wlc winner joins the set; a set of more than one
 * member unchanged for {@code lblcr_expiration} loses its most loaded member.
 *
 * <p>Garbage collection every 60 s: each 30th run removes entries unused for the expiration
 * (default 24 h); between them, only above 16 × 1024 entries, entries idle over 6 min go, at most
 * {@code min((entries - 16384) × 4/3, 8192)}, bucket by bucket from a rover.
 */
final class Locality implements Scheduler {
    static final int TAB_BITS = 10;
    static final int TAB_SIZE = 1 << TAB_BITS;
    static final int MAX_SIZE = 16 * TAB_SIZE;
    static final long CHECK_INTERVAL_NANOS = 60_000_000_000L;
    static final long IDLE_TIMEOUT_NANOS = 6 * 60_000_000_000L;
    static final int FULL_EVERY = 30;

    private static final class Entry {
        final InetAddress key;
        long lastUse;
        /** lblc: one member; lblcr: the set, newest first. */
        final List<Dest> set = new ArrayList<>();
        long lastMod;

        Entry(InetAddress key, long now) {
            this.key = key;
            this.lastUse = now;
            this.lastMod = now;
        }
    }

    private final List<Dest> dests;
    private final boolean replicated;
    private final long expirationNanos;
    private final Map<InetAddress, Entry> table = new LinkedHashMap<>();
    private long nextCheck = Long.MIN_VALUE;
    private int counter = 1;
    private int rover;

    Locality(List<Dest> dests, boolean replicated, long expirationNanos) {
        this.dests = dests;
        this.replicated = replicated;
        this.expirationNanos = expirationNanos;
    }

    /** The number of table entries (for tests). */
    int entries() {
        return table.size();
    }

    /** "Overloaded" as lblc/lblcr judge it (not the threshold flag). */
    private boolean isOverloaded(Dest d) {
        if (d.activeConns > d.weight) {
            for (Dest m : dests) {
                if (m.activeConns * 2 < m.weight) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public Dest schedule(Request request, long now) {
        Entry en = table.get(request.virtual());
        if (!replicated) {
            if (en != null) {
                en.lastUse = now;
                Dest d = en.set.get(0);
                if (d.available && d.weight > 0 && !isOverloaded(d)) {
                    return d;
                }
            }
            Dest d = LeastConnection.wlc(dests);
            if (d == null) {
                return null;
            }
            if (en == null) {
                en = new Entry(request.virtual(), now);
                table.put(en.key, en);
            } else {
                en.set.clear();
            }
            en.set.add(d);
            return d;
        }
        if (en != null) {
            en.lastUse = now;
            Dest d = setMin(en.set);
            if (en.set.size() > 1 && now - en.lastMod > expirationNanos) {
                Dest m = setMax(en.set);
                if (m != null) {
                    en.set.remove(m);
                    en.lastMod = now;
                }
            }
            if (d != null && !isOverloaded(d)) {
                return d;
            }
            d = LeastConnection.wlc(dests);
            if (d == null) {
                return null;
            }
            if (!en.set.contains(d)) {
                en.set.add(0, d);
                en.lastMod = now;
            }
            return d;
        }
        Dest d = LeastConnection.wlc(dests);
        if (d == null) {
            return null;
        }
        en = new Entry(request.virtual(), now);
        en.set.add(d);
        table.put(en.key, en);
        return d;
    }

    /** {@code ip_vs_dest_set_min}: the wlc minimum over usable, AVAILABLE members. */
    private static Dest setMin(List<Dest> set) {
        return LeastConnection.weightedLeast(set, d -> d.available, Dest::overhead);
    }

    /** {@code ip_vs_dest_set_max}: the most loaded member by overhead / weight (weight &gt; 0). */
    private static Dest setMax(List<Dest> set) {
        Dest most = null;
        long moh = 0;
        for (Dest d : set) {
            if (most == null) {
                if (d.weight > 0) {
                    most = d;
                    moh = d.overhead();
                }
                continue;
            }
            long doh = d.overhead();
            if (moh * d.weight < doh * most.weight && d.weight > 0) {
                most = d;
                moh = doh;
            }
        }
        return most;
    }

    @Override
    public void tick(long now) {
        if (nextCheck == Long.MIN_VALUE) {
            nextCheck = now + CHECK_INTERVAL_NANOS;
            return;
        }
        while (now - nextCheck >= 0) {
            check(nextCheck);
            nextCheck += CHECK_INTERVAL_NANOS;
        }
    }

    private void check(long now) {
        if (counter % FULL_EVERY == 0) {
            table.values().removeIf(en -> now - (en.lastUse + expirationNanos) >= 0);
            counter = 1;
            return;
        }
        if (table.size() <= MAX_SIZE) {
            counter++;
            return;
        }
        int goal = Math.min((table.size() - MAX_SIZE) * 4 / 3, MAX_SIZE / 2);
        List<Entry> byBucket = new ArrayList<>(table.values());
        byBucket.sort(Comparator.comparingInt(en -> KernelHash.hash32(KernelHash.fold(en.key), TAB_BITS)));
        int j = rover;
        for (int i = 0; i < TAB_SIZE && goal > 0; i++) {
            j = (j + 1) & (TAB_SIZE - 1);
            Iterator<Entry> it = byBucket.iterator();
            while (it.hasNext()) {
                Entry en = it.next();
                if (KernelHash.hash32(KernelHash.fold(en.key), TAB_BITS) != j) {
                    continue;
                }
                if (now - (en.lastUse + IDLE_TIMEOUT_NANOS) < 0) {
                    continue;
                }
                table.remove(en.key);
                it.remove();
                goal--;
            }
        }
        rover = j;
    }
}
