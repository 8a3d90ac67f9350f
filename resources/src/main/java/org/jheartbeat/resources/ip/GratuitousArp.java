package org.jheartbeat.resources.ip;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How to announce a taken-over address with unsolicited (gratuitous) ARP using iputils {@code
 * arping -U}, so neighbours update their caches, as Heartbeat's IPaddr does with {@code send_arp}.
 * Pure policy and argv builder.
 *
 * <p>Measured on the target Debian 12 host (iputils 20221126, veth in a network namespace):
 * {@code arping -U -c 1 -I dev IP} takes about 1000-1020 ms, because arping waits one interval
 * after the last probe. {@link #DEFAULT} therefore sends nothing synchronously: all {@code count}
 * ARPs go from background runs whose completion start does not await. {@link #FIRST_CONFIRMED}
 * (the daemon's) has start wait only until the first run's probe is out, which an {@link
 * ArpLauncher} confirms about 1 ms after exec, and leaves its linger and the rest to the background.
 *
 * @param arpingProgram    the iputils {@code arping} executable (name on {@code PATH} or path)
 * @param count            ARPs to send in total, at arping's 1 s interval; 0 disables announcing
 * @param synchronousFirst send the first ARP before start returns, the rest in the background
 *                         (with an {@link ArpLauncher}: until its probe is out, ~1 ms; without one,
 *                         a whole {@code arping -c 1} run, ~1 s)
 */
public record GratuitousArp(String arpingProgram, int count, boolean synchronousFirst) {
    /** 5 ARPs, all in the background (Heartbeat's IPaddr repeats 5 by default). */
    public static final GratuitousArp DEFAULT = new GratuitousArp("arping", 5, false);
    /** 5 ARPs, the first confirmed out before start returns (the daemon's, with {@link ProcArpLauncher}). */
    public static final GratuitousArp FIRST_CONFIRMED = new GratuitousArp("arping", 5, true);
    /** Slack added to a run's own duration for its timeout, in s. */
    private static final int TIMEOUT_SLACK_S = 5;

    public GratuitousArp {
        Objects.requireNonNull(arpingProgram, "arpingProgram");
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: " + count);
        }
    }

    /**
     * @param iface   interface to send on
     * @param address the address being announced (source and target of the ARP)
     * @param n       number of ARPs, positive
     * @return {@code arping -U -c N -I IFACE IP}
     */
    public List<String> argv(String iface, String address, int n) {
        return List.of(arpingProgram, "-U", "-c", Integer.toString(n), "-I", iface, address);
    }

    /** @return ARPs sent synchronously by start: 1 or 0 */
    public int synchronousCount() {
        return synchronousFirst && count > 0 ? 1 : 0;
    }

    /** @return ARPs left for the background run (0: no background run) */
    public int backgroundCount() {
        return count - synchronousCount();
    }

    /** @param n ARPs in one run @return a timeout for that run: n s plus 5 s slack */
    public static Duration timeoutFor(int n) {
        return Duration.ofSeconds(n + TIMEOUT_SLACK_S);
    }
}
