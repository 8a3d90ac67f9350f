package org.jheartbeat.director.userspace.sched;

import org.jheartbeat.director.table.Counters;

/**
 * Traffic totals of a service or destination and the kernel's rate estimator over them
 * ({@code ip_vs_est.c}): every 2 s, for each counter, {@code rate = delta << 9} (connections and
 * packets, i.e. per second scaled by 2^10) or {@code delta << 4} (bytes, scaled by 2^5), then
 * {@code avg += (rate - avg) >> 2}; read back as {@code (avg + 0x1FF) >> 10} and
 * {@code (avg + 0xF) >> 5}.
 */
final class Traffic {
    /** The estimator's period: 2 s, as the kernel's estimation timer. */
    static final long PERIOD_NANOS = 2_000_000_000L;

    long conns;
    long inPkts;
    long outPkts;
    long inBytes;
    long outBytes;

    private final long[] last = new long[5];
    private final long[] avg = new long[5];

    /** One estimator run (every {@link #PERIOD_NANOS}). */
    void estimate() {
        long[] now = {conns, inPkts, outPkts, inBytes, outBytes};
        for (int i = 0; i < 5; i++) {
            long delta = now[i] - last[i];
            last[i] = now[i];
            long rate = i < 3 ? delta << 9 : delta << 4;
            avg[i] += (rate - avg[i]) >> 2;
        }
    }

    /** The totals, as {@code --stats} shows them. */
    Counters totals() {
        return new Counters(conns, inPkts, outPkts, inBytes, outBytes);
    }

    /** The decoded rates, as {@code --rate} shows them (per second). */
    Counters rates() {
        return new Counters((avg[0] + 0x1FF) >> 10, (avg[1] + 0x1FF) >> 10, (avg[2] + 0x1FF) >> 10,
                (avg[3] + 0xF) >> 5, (avg[4] + 0xF) >> 5);
    }
}
