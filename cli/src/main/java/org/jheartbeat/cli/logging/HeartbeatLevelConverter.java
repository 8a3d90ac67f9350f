package org.jheartbeat.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.slf4j.Marker;

/**
 * The level word of a log line ({@link LineLayout}, {@link SyslogEncoder}): the level as Heartbeat
 * 3.0.6 prints it in its log ({@code info}, {@code WARN}, {@code ERROR}, {@code CRIT}, {@code debug}), so existing log watchers
 * keep matching. CRIT is an ERROR event carrying the {@code CRIT} marker.
 */
public final class HeartbeatLevelConverter extends ClassicConverter {
    @Override
    public String convert(ILoggingEvent event) {
        if (event.getMarkerList() != null) {
            for (Marker m : event.getMarkerList()) {
                if ("CRIT".equals(m.getName())) {
                    return "CRIT";
                }
            }
        }
        Level l = event.getLevel();
        if (l == Level.ERROR) {
            return "ERROR";
        }
        if (l == Level.WARN) {
            return "WARN";
        }
        if (l == Level.INFO) {
            return "info";
        }
        return "debug";
    }
}
