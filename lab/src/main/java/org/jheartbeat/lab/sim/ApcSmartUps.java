package org.jheartbeat.lab.sim;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.util.ArrayList;
import java.util.List;

/**
 * Pure model of one APC Smart-UPS with one outlet, answering the commands cluster-glue's {@code apcsmart}
 * plugin sends (facts stonith-sync §1.3, §1.8; [APC-proto]). No clock or I/O: every call takes
 * {@code nowNanos}; replies are returned as bytes (CR LF terminated); outlet changes are queued as
 * {@link Event}s for the caller to act on.
 *
 * <ul>
 *   <li>{@code Y}→{@code SM}; {@code Q}→{@code 08} (on line) / {@code 00} (output off); {@code ~}→{@code 80} /
 *       {@code C0} (bit 0x40: off); {@code '}→{@code 00}; {@code 8}→{@code 08} while asleep after {@code @},
 *       else {@code 00}. The output state these report changes once the caller has {@link #settled} the outlet
 *       event (carried out the power change).</li>
 *   <li>{@code p}/{@code r}: grace {@code 020 180 300 600} (starts at 180) and wake-up {@code 000 060 180 300}
 *       (starts at 180) seconds; {@code -} steps the variable queried just before to the previous value
 *       (wrapping) and answers {@code OK}, otherwise {@code NO}.</li>
 *   <li>{@code S}→{@code NA} (always on mains). {@code @ddd}→{@code OK} after the third digit; after grace
 *       {@code p} the output goes off and Register 3 bit 0x08 is set; after
 *       max(ddd×360 + {@code r}, {@value #MIN_OFF_S}) s it comes back on. With the output already off,
 *       {@code @}→{@code NA} at once and the following digits are swallowed.</li>
 *   <li>{@code Z} / {@code ^N} (0x0E): act on the second identical byte 1.5–10 s after the first; no reply.</li>
 *   <li>DEL (0x7F) cancels a pending {@code @}, {@code OK}; {@code R}→{@code BYE}; CR, LF, ESC ignored;
 *       anything else {@code NA}.</li>
 * </ul>
 * The {@code fast} factor divides the UPS-side delays (grace, off time) so tests need not wait 20 s; the
 * output stays off at least {@value #MIN_VISIBLE_MS} ms so a client polling once a second sees the sleep bit.
 */
public final class ApcSmartUps {
    /** An outlet change the caller acts on (runs the lab's power command). */
    public enum Event { OUTLET_OFF, OUTLET_ON }

    static final String[] GRACE = {"020", "180", "300", "600"};
    static final String[] WAKEUP = {"000", "060", "180", "300"};
    /** Shortest off time after {@code @}, s (before {@code fast}). */
    static final int MIN_OFF_S = 10;
    /** Shortest off time after {@code @} whatever {@code fast} says, ms. */
    static final long MIN_VISIBLE_MS = 3000;
    private static final long MS = 1_000_000L;
    private static final long PAIR_MIN_NANOS = 1500 * MS;
    private static final long PAIR_MAX_NANOS = 10_000 * MS;

    private final double fast;
    private boolean outletOn = true;
    /** Whether the load really has power: what the registers report (see {@link #settled}). */
    private boolean powered = true;
    private boolean sleeping;
    private int grace = 1;
    private int wakeup = 2;
    private char lastVar;
    private String atDigits;
    private int swallow;
    private long shutdownAt = Long.MAX_VALUE;
    private long wakeAt = Long.MAX_VALUE;
    private long offDurationNanos;
    private byte pairByte;
    private long pairAt;
    private final List<Event> events = new ArrayList<>();

    /** @param fast factor &ge; 1 dividing grace and off times (1 = real UPS timing) */
    public ApcSmartUps(double fast) {
        if (!(fast >= 1)) {
            throw new IllegalArgumentException("fast factor must be >= 1: " + fast);
        }
        this.fast = fast;
    }

    /** Whether the outlet is powered. */
    public synchronized boolean outletOn() {
        return outletOn;
    }

    /** Handles one byte from the host at {@code nowNanos}; returns the reply bytes (possibly none). */
    public synchronized byte[] receive(byte b, long nowNanos) {
        advance(nowNanos);
        char c = (char) (b & 0xff);
        if (atDigits != null) {
            if (Character.isDigit(c)) {
                atDigits += c;
                return atDigits.length() < 3 ? none() : scheduleShutdown(Integer.parseInt(atDigits), nowNanos);
            }
            atDigits = null;
        }
        if (swallow > 0 && Character.isDigit(c)) {
            swallow--;
            return none();
        }
        swallow = 0;
        char queried = lastVar;
        lastVar = 0;
        if (c != 'Z' && c != 0x0E) {
            pairByte = 0;
        }
        switch (c) {
            case 'Y': return line("SM");
            case 'Q': return line(powered ? "08" : "00");
            case '~': return line(powered ? "80" : "C0");
            case '\'': return line("00");
            case '8': return line(sleeping && !powered ? "08" : "00");
            case 'p': lastVar = 'p'; return line(GRACE[grace]);
            case 'r': lastVar = 'r'; return line(WAKEUP[wakeup]);
            case '-': return step(queried);
            case 'S': return line("NA");
            case '@':
                if (!outletOn || shutdownAt != Long.MAX_VALUE) {
                    swallow = 3;
                    return line("NA");
                }
                atDigits = "";
                return none();
            case 'Z': case 0x0E: pair(b, nowNanos); return none();
            case 0x7F:
                shutdownAt = Long.MAX_VALUE;
                return line("OK");
            case 'R': return line("BYE");
            case '\r': case '\n': case 27: return none();
            default: return line("NA");
        }
    }

    private byte[] step(char queried) {
        if (queried == 'p') {
            grace = (grace + GRACE.length - 1) % GRACE.length;
        } else if (queried == 'r') {
            wakeup = (wakeup + WAKEUP.length - 1) % WAKEUP.length;
        } else {
            return line("NO");
        }
        return line("OK");
    }

    private byte[] scheduleShutdown(int tenthsOfHour, long nowNanos) {
        atDigits = null;
        long graceNanos = (long) (Integer.parseInt(GRACE[grace]) * 1000 * MS / fast);
        long offS = Math.max(tenthsOfHour * 360L + Integer.parseInt(WAKEUP[wakeup]), MIN_OFF_S);
        offDurationNanos = Math.max((long) (offS * 1000 * MS / fast), MIN_VISIBLE_MS * MS);
        shutdownAt = nowNanos + graceNanos;
        return line("OK");
    }

    private void pair(byte b, long nowNanos) {
        long gap = nowNanos - pairAt;
        if (pairByte == b && gap >= PAIR_MIN_NANOS && gap <= PAIR_MAX_NANOS) {
            pairByte = 0;
            shutdownAt = Long.MAX_VALUE;
            wakeAt = Long.MAX_VALUE;
            sleeping = false;
            setOutlet(b != 'Z');
        } else {
            pairByte = b;
            pairAt = nowNanos;
        }
    }

    /** Runs the timers due at {@code nowNanos} (grace expiry, wake-up). */
    public synchronized void advance(long nowNanos) {
        if (nowNanos - shutdownAt >= 0) {
            shutdownAt = Long.MAX_VALUE;
            sleeping = true;
            setOutlet(false);
            wakeAt = nowNanos + offDurationNanos;
        }
        if (nowNanos - wakeAt >= 0) {
            wakeAt = Long.MAX_VALUE;
            sleeping = false;
            setOutlet(true);
        }
    }

    /** When {@link #advance} next has something to do, ns; {@link Long#MAX_VALUE} if nothing is pending. */
    public synchronized long nextDeadlineNanos() {
        return Math.min(shutdownAt, wakeAt);
    }

    /**
     * The caller has carried out {@code e} (the lab's power command for it has ended): from now on the registers
     * report it. A real UPS's Register 1 changes when its relay opens, which is the moment the load loses power;
     * in the lab the node loses power when the power command has run, so the registers follow that, not the
     * command ({@code ~}, {@code Q}, and the sleep bit of {@code 8}, which needs the output off). Otherwise a
     * client that reads the register at once after {@code Z Z} would take over while the "powered-off" node
     * still holds its addresses.
     */
    public synchronized void settled(Event e) {
        powered = e == Event.OUTLET_ON;
    }

    /** Takes the outlet changes since the last call, oldest first; each must be {@link #settled} once carried out. */
    public synchronized List<Event> drainEvents() {
        List<Event> out = List.copyOf(events);
        events.clear();
        return out;
    }

    private void setOutlet(boolean on) {
        if (outletOn != on) {
            outletOn = on;
            events.add(on ? Event.OUTLET_ON : Event.OUTLET_OFF);
        }
    }

    private static byte[] line(String s) {
        return (s + "\r\n").getBytes(US_ASCII);
    }

    private static byte[] none() {
        return new byte[0];
    }
}
