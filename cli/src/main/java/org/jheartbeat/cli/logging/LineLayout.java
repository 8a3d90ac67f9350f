package org.jheartbeat.cli.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.util.CachingDateFormatter;
import java.time.ZoneId;
import java.util.function.Function;

/**
 * The two line formats of {@code hb}, written out instead of through logback's {@code PatternLayout}, whose
 * pattern parser and ~60 converter factories (one lambda class each) cost every start about 150 classes
 * (the daemon's start time and memory). Each line is exactly what the equivalent pattern prints
 * ({@code LineLayoutTest} compares them): a head, the formatted message, the line separator, then the stack trace of an attached
 * exception as {@code PatternLayout} appends it (logback's {@link ThrowableProxyConverter}).
 */
final class LineLayout extends LayoutBase<ILoggingEvent> {
    /** The daemon's date format, as Heartbeat 3.0.6's log lines ({@code 2026/11/29_19:20:01.123}). */
    static final String DATE_FORMAT = "yyyy/MM/dd_HH:mm:ss.SSS";

    private final Function<ILoggingEvent, String> head;
    private final ThrowableProxyConverter stackTrace = new ThrowableProxyConverter();

    private LineLayout(Function<ILoggingEvent, String> head) {
        this.head = head;
    }

    /**
     * The daemon's lines: {@code 2026/11/29_19:20:01.123 node1 hb[1234]: WARN: message}, the level word as
     * Heartbeat's ({@link HeartbeatLevelConverter}); as the pattern
     * {@code %d{yyyy/MM/dd_HH:mm:ss.SSS} NODE hb[PID]: %hblevel: %msg%n}.
     *
     * @param nodeName the node's name, shown like a syslog host name
     * @param pid      the process id shown in brackets
     * @param zone     the time zone of the date (the system's, as logback's {@code %d})
     */
    static LineLayout daemon(String nodeName, long pid, ZoneId zone) {
        CachingDateFormatter date = new CachingDateFormatter(DATE_FORMAT, zone);
        HeartbeatLevelConverter level = new HeartbeatLevelConverter();
        String middle = " " + nodeName + " hb[" + pid + "]: ";
        return new LineLayout(e -> date.format(e.getTimeStamp()) + middle + level.convert(e) + ": ");
    }

    /** The client commands' lines: {@code hb: WARN: message}; as the pattern {@code hb: %level: %msg%n}. */
    static LineLayout client() {
        return new LineLayout(e -> "hb: " + e.getLevel() + ": ");
    }

    /** An encoder of this layout, started, on {@code ctx} (the default charset, as {@code PatternLayoutEncoder}). */
    LayoutWrappingEncoder<ILoggingEvent> encoder(Context ctx) {
        setContext(ctx);
        start();
        LayoutWrappingEncoder<ILoggingEvent> enc = new LayoutWrappingEncoder<>();
        enc.setContext(ctx);
        enc.setLayout(this);
        enc.start();
        return enc;
    }

    @Override
    public void start() {
        stackTrace.setContext(getContext());
        stackTrace.start();
        super.start();
    }

    @Override
    public String doLayout(ILoggingEvent event) {
        return head.apply(event) + event.getFormattedMessage() + CoreConstants.LINE_SEPARATOR + stackTrace.convert(event);
    }
}
