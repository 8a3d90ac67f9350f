package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.MarkerFactory;

/** {@link LineLayout} prints exactly what logback's PatternLayout prints for the same pattern. */
class LineLayoutTest {
    private final LoggerContext ctx = new LoggerContext();

    private Encoder<ILoggingEvent> pattern(String pattern) {
        java.util.Map<String, String> rules = new java.util.HashMap<>();
        rules.put("hblevel", HeartbeatLevelConverter.class.getName());
        ctx.putObject(ch.qos.logback.core.CoreConstants.PATTERN_RULE_REGISTRY, rules);
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern(pattern);
        enc.start();
        return enc;
    }

    private List<ILoggingEvent> events() {
        Logger log = ctx.getLogger("org.jheartbeat.x");
        IOException cause = new IOException("disk gone");
        IllegalStateException withCause = new IllegalStateException("cannot write", cause);
        withCause.addSuppressed(new UncheckedIOException("also", new IOException("second")));
        List<ILoggingEvent> events = new ArrayList<>();
        long t = 1_764_600_000_123L;
        for (Level level : new Level[] {Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR}) {
            LoggingEvent e = new LoggingEvent("fqcn", log, level, "node {} is {}", null, new Object[] {"node2", "dead"});
            e.setTimeStamp(t += 61_001);
            events.add(e);
        }
        LoggingEvent crit = new LoggingEvent("fqcn", log, Level.ERROR, "STONITH of node2 failed", null, null);
        crit.addMarker(MarkerFactory.getMarker("CRIT"));
        crit.setTimeStamp(t += 1);
        events.add(crit);
        events.add(new LoggingEvent("fqcn", log, Level.WARN, "failed: {}", withCause, new Object[] {"x"}));
        events.add(new LoggingEvent("fqcn", log, Level.ERROR, "plain", new RuntimeException(), null));
        events.add(new LoggingEvent("fqcn", log, Level.WARN, "ünïcödé {} {}", null, new Object[] {null, 3}));
        return events;
    }

    private static String text(Encoder<ILoggingEvent> enc, List<ILoggingEvent> events) {
        StringBuilder sb = new StringBuilder();
        for (ILoggingEvent e : events) {
            sb.append(new String(enc.encode(e), java.nio.charset.Charset.defaultCharset()));
        }
        return sb.toString();
    }

    @Test
    void daemonLinesAsThePattern() {
        List<ILoggingEvent> events = events();
        String expected = text(pattern("%d{yyyy/MM/dd_HH:mm:ss.SSS} node1 hb[4242]: %hblevel: %msg%n"), events);
        String actual = text(LineLayout.daemon("node1", 4242, ZoneId.systemDefault()).encoder(ctx), events);
        assertThat(actual).isEqualTo(expected);
        assertThat(actual).contains(" node1 hb[4242]: CRIT: STONITH of node2 failed", "Caused by: java.io.IOException: disk gone",
                "Suppressed: java.io.UncheckedIOException: also");
    }

    @Test
    void clientLinesAsThePattern() {
        List<ILoggingEvent> events = events();
        String expected = text(pattern(ClientLogConfigurator.PATTERN), events);
        assertThat(text(LineLayout.client().encoder(ctx), events)).isEqualTo(expected)
                .contains("hb: WARN: node node2 is dead" + System.lineSeparator());
    }
}
