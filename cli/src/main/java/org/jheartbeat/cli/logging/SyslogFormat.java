package org.jheartbeat.cli.logging;

import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Formats one syslog record the way glibc's {@code syslog(3)} writes it to {@code /dev/log} (RFC 3164
 * section 4.1 "BSD syslog" format, as rsyslog and systemd-journald read it):
 * {@code <PRI>Mmm dd hh:mm:ss IDENT[PID]: MESSAGE}, local time, month in English, day padded with a
 * blank, no host name (the receiver adds it) and no trailing newline. Pure.
 */
public final class SyslogFormat {
    /**
     * The longest record sent, in bytes (rsyslog's default {@code $MaxMessageSize}, 8 KiB); a longer
     * message is cut at a character boundary and ends with {@code ...}.
     */
    public static final int MAX_RECORD_BYTES = 8192;
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss", Locale.ROOT);

    private SyslogFormat() {
    }

    /**
     * The severities of RFC 3164 section 4.1.1 that jheartbeat logs at, with the Heartbeat level word
     * each one carries in the log ({@link HeartbeatLevelConverter}).
     */
    public enum Severity {
        CRIT(2), ERROR(3), WARN(4), INFO(6), DEBUG(7);

        private final int code;

        Severity(int code) {
            this.code = code;
        }

        /** The RFC 3164 severity code: 2 crit, 3 err, 4 warning, 6 info, 7 debug. */
        public int code() {
            return code;
        }
    }

    /** RFC 3164 PRI: {@code facility code * 8 + severity code}. */
    public static int priority(SyslogFacility facility, Severity severity) {
        return facility.code() * 8 + severity.code();
    }

    /**
     * One record, UTF-8, at most {@link #MAX_RECORD_BYTES} bytes.
     *
     * @param facility from ha.cf {@code logfacility}
     * @param severity the record's severity
     * @param time     when it was logged, in the zone the record's timestamp is written in (local time, as glibc)
     * @param ident    the tag, e.g. {@code jheartbeat}
     * @param pid      process id written after the tag
     * @param message  the text after {@code IDENT[PID]: }
     * @return the record's bytes
     */
    public static byte[] record(SyslogFacility facility, Severity severity, ZonedDateTime time, String ident, long pid,
                                String message) {
        String head = "<" + priority(facility, severity) + ">" + TIMESTAMP.format(time) + " " + ident + "[" + pid + "]: ";
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        byte[] m = message.getBytes(StandardCharsets.UTF_8);
        int room = MAX_RECORD_BYTES - h.length;
        byte[] ellipsis = "...".getBytes(StandardCharsets.US_ASCII);
        int take = m.length;
        boolean cut = false;
        if (m.length > room) {
            cut = true;
            take = room - ellipsis.length;
            while (take > 0 && (m[take] & 0xC0) == 0x80) {
                take--; // do not split a UTF-8 sequence: back off to its first byte
            }
        }
        byte[] out = new byte[h.length + take + (cut ? ellipsis.length : 0)];
        System.arraycopy(h, 0, out, 0, h.length);
        System.arraycopy(m, 0, out, h.length, take);
        if (cut) {
            System.arraycopy(ellipsis, 0, out, h.length + take, ellipsis.length);
        }
        return out;
    }
}
