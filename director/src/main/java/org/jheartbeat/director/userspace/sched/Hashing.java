package org.jheartbeat.director.userspace.sched;

import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The hashing schedulers: dh, sh ({@code ip_vs_dh.c}, {@code ip_vs_sh.c}: 256 buckets) and mh
 * ({@code ip_vs_mh.c}: Maglev, 4093 slots).
 *
 * <ul>
 * <li>dh: bucket {@code hash_32(daddr, 8)}; buckets filled round-robin over the list (weights
 * unused), rebuilt on add and delete only; an unusable bucket owner means no destination.</li>
 * <li>sh: bucket {@code hash_32(sport + saddr, 8)} (port 0 unless {@code sh-port}); each
 * destination takes {@code weight} consecutive buckets (at least one) per cycle; rebuilt on add,
 * delete and edit. An owner with weight 0 or the overload flag: no destination, or with
 * {@code sh-fallback} the buckets {@code (offset + 2 × ihash) & 255}, offset 0..255, first usable
 * wins.</li>
 * <li>mh: per destination {@code offset = h1(port + addr) % M}, {@code skip = h2(…) % (M - 1) + 1}
 * ({@code hsiphash} with keys 2654435761 and 2654446892), {@code turns = (last_weight / gcd) >>
 * rshift} (at least 1 for a non-zero last weight), {@code rshift = max(0, fls(max/gcd) - 6)};
 * rounds over the list claim each one's next free preferred slots; rebuilt on add, delete and
 * edit, from last_weight, so weight 0 keeps the slots. Lookup {@code h1(sport + saddr) % M}
 * (port 0 unless {@code mh-port}); an unusable owner means no destination, or with
 * {@code mh-fallback} slots {@code h1(roffset + sport + saddr) % M} with
 * {@code roffset = (offset + ihash) % M}.</li>
 * </ul>
 */
final class Hashing implements Scheduler {
    /** Which table. */
    enum Kind { DH, SH, MH }

    static final int SH_SIZE = 256;
    /** {@code primes[CONFIG_IP_VS_MH_TAB_INDEX - 8]} with the default index 12. */
    static final int MH_SIZE = 4093;
    static final int MH_TAB_BITS = 6;
    static final long MH_KEY1 = 2654435761L;
    static final long MH_KEY2 = 2654446892L;

    private final List<Dest> dests;
    private final Kind kind;
    private final boolean fallback;
    private final boolean port;
    private Dest[] table;

    Hashing(List<Dest> dests, Kind kind, boolean fallback, boolean port) {
        this.dests = dests;
        this.kind = kind;
        this.fallback = fallback;
        this.port = port;
        rebuild();
    }

    /** The owner of each bucket/slot (for tests). */
    Dest[] table() {
        return table.clone();
    }

    private void rebuild() {
        table = switch (kind) {
            case DH -> fill(false);
            case SH -> fill(true);
            case MH -> maglev();
        };
    }

    private Dest[] fill(boolean weighted) {
        Dest[] t = new Dest[SH_SIZE];
        if (dests.isEmpty()) {
            return t;
        }
        int p = 0;
        int count = 0;
        for (int i = 0; i < SH_SIZE; i++) {
            Dest d = dests.get(p);
            t[i] = d;
            if (!weighted || ++count >= d.weight) {
                p = (p + 1) % dests.size();
                count = 0;
            }
        }
        return t;
    }

    private static int mhKey(int addrFold, int port, int offset, long key) {
        return (int) KernelHash.hsiphash32(offset + port + addrFold, key, key);
    }

    private Dest[] maglev() {
        Dest[] t = new Dest[MH_SIZE];
        int gcd = 0;
        int max = 0;
        for (Dest d : dests) {
            if (d.lastWeight > 0) {
                gcd = gcd > 0 ? gcd(d.lastWeight, gcd) : d.lastWeight;
            }
            max = Math.max(max, d.lastWeight);
        }
        if (gcd < 1) {
            return t;
        }
        int shift = Math.max(0, (32 - Integer.numberOfLeadingZeros(max / gcd)) - MH_TAB_BITS);
        int n = dests.size();
        int[] perm = new int[n];
        int[] skip = new int[n];
        int[] turns = new int[n];
        for (int i = 0; i < n; i++) {
            Dest d = dests.get(i);
            int a = KernelHash.fold(d.address.getAddress());
            perm[i] = (int) (Integer.toUnsignedLong(mhKey(a, d.address.getPort(), 0, MH_KEY1)) % MH_SIZE);
            skip[i] = (int) (Integer.toUnsignedLong(mhKey(a, d.address.getPort(), 0, MH_KEY2)) % (MH_SIZE - 1)) + 1;
            int lw = d.lastWeight;
            int tr = (lw / gcd) >> shift;
            turns[i] = tr != 0 ? tr : (lw != 0 ? 1 : 0);
        }
        boolean[] taken = new boolean[MH_SIZE];
        int filled = 0;
        int dtCount = 0;
        while (true) {
            int i = 0;
            while (i < n) {
                if (turns[i] < 1) {
                    i++;
                    continue;
                }
                int c = perm[i];
                while (taken[c]) {
                    perm[i] += skip[i];
                    if (perm[i] >= MH_SIZE) {
                        perm[i] -= MH_SIZE;
                    }
                    c = perm[i];
                }
                taken[c] = true;
                t[c] = dests.get(i);
                if (++filled == MH_SIZE) {
                    return t;
                }
                if (++dtCount >= turns[i]) {
                    dtCount = 0;
                    i++;
                }
            }
        }
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int r = a % b;
            a = b;
            b = r;
        }
        return a;
    }

    private static boolean unavailable(Dest d) {
        return d.weight <= 0 || d.overloaded;
    }

    @Override
    public Dest schedule(Request request, long nowNanos) {
        return switch (kind) {
            case DH -> {
                Dest d = table[KernelHash.hash32(KernelHash.fold(request.virtual()), 8)];
                yield d == null || !d.available || d.weight <= 0 || d.overloaded ? null : d;
            }
            case SH -> sh(request);
            case MH -> mh(request);
        };
    }

    private Dest sh(Request r) {
        int key = (port ? r.clientPort() : 0) + KernelHash.fold(r.client());
        int ihash = KernelHash.hash32(key, 8);
        return pick(ihash, SH_SIZE, roffset -> (roffset + KernelHash.hash32(key, 8)) & (SH_SIZE - 1));
    }

    private Dest mh(Request r) {
        int a = KernelHash.fold(r.client());
        int p = port ? r.clientPort() : 0;
        int ihash = (int) (Integer.toUnsignedLong(mhKey(a, p, 0, MH_KEY1)) % MH_SIZE);
        return pick(ihash, MH_SIZE, roffset -> (int) (Integer.toUnsignedLong(mhKey(a, p, roffset, MH_KEY1)) % MH_SIZE));
    }

    /**
     * The kernel's sh/mh look-up: the dest in bucket {@code ihash} if it is available; else, with
     * fallback, the first available dest of the buckets {@code probe} maps the offsets
     * {@code ihash .. ihash+size-1} (mod size) to; null if none.
     */
    private Dest pick(int ihash, int size, IntUnaryOperator probe) {
        Dest d = table[ihash];
        if (d == null) {
            return null;
        }
        if (!unavailable(d)) {
            return d;
        }
        if (!fallback) {
            return null;
        }
        for (int offset = 0; offset < size; offset++) {
            Dest c = table[probe.applyAsInt((offset + ihash) % size)];
            if (!unavailable(c)) {
                return c;
            }
        }
        return null;
    }

    @Override
    public void added(Dest d) {
        rebuild();
    }

    @Override
    public void removed(Dest d, int formerIndex) {
        rebuild();
    }

    @Override
    public void updated(Dest d) {
        if (kind != Kind.DH) {
            rebuild();
        }
    }
}
