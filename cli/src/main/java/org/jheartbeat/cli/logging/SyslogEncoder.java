package org.jheartbeat.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.encoder.EncoderBase;
import java.time.Instant;
import java.time.ZoneId;

/**
 * Encodes one log event as one syslog record ({@link SyslogFormat}): severity from the level (the
 * {@code CRIT} marker gives crit), the message prefixed with Heartbeat's level word as in the log
 * files ({@code WARN: node node2: is dead}), so a watcher matching Heartbeat 3.0.6's words matches in
 * syslog too; an exception adds its one-line summary, not its stack trace.
 */
public final class SyslogEncoder extends EncoderBase<ILoggingEvent> {
    private final SyslogFacility facility;
    private final String ident;
    private final long pid;
    private final ZoneId zone;
    private final HeartbeatLevelConverter levelWord = new HeartbeatLevelConverter();

    /**
     * @param facility ha.cf {@code logfacility}
     * @param ident    the tag of every record
     * @param pid      the process id written after the tag
     * @param zone     the zone of the records' timestamps (glibc: local time)
     */
    public SyslogEncoder(SyslogFacility facility, String ident, long pid, ZoneId zone) {
        this.facility = facility;
        this.ident = ident;
        this.pid = pid;
        this.zone = zone;
    }

    /** The record's severity: CRIT marker → crit, then error, warning, info, debug (trace too). */
    static SyslogFormat.Severity severity(ILoggingEvent event, String word) {
        if ("CRIT".equals(word)) {
            return SyslogFormat.Severity.CRIT;
        }
        Level l = event.getLevel();
        if (l == Level.ERROR) {
            return SyslogFormat.Severity.ERROR;
        }
        if (l == Level.WARN) {
            return SyslogFormat.Severity.WARN;
        }
        return l == Level.INFO ? SyslogFormat.Severity.INFO : SyslogFormat.Severity.DEBUG;
    }

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        String word = levelWord.convert(event);
        String text = word + ": " + event.getFormattedMessage();
        IThrowableProxy t = event.getThrowableProxy();
        if (t != null) {
            text += " (" + t.getClassName() + (t.getMessage() != null ? ": " + t.getMessage() : "") + ")";
        }
        return SyslogFormat.record(facility, severity(event, word), Instant.ofEpochMilli(event.getTimeStamp())
                .atZone(zone), ident, pid, text);
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }
}
