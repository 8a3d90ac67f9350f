package org.jheartbeat.director.table;

/**
 * Five traffic figures of a service or real server, as {@code ipvsadm -L --stats} (totals:
 * connections, packets in/out, bytes in/out) or {@code --rate} (per second: CPS, InPPS, OutPPS,
 * InBPS, OutBPS) prints them.
 *
 * @param conns    connections (or connections per second)
 * @param inPkts   packets in (per second)
 * @param outPkts  packets out (per second)
 * @param inBytes  bytes in (per second)
 * @param outBytes bytes out (per second)
 */
public record Counters(long conns, long inPkts, long outPkts, long inBytes, long outBytes) {
    /** All zero. */
    public static final Counters ZERO = new Counters(0, 0, 0, 0, 0);
}
