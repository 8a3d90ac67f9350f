package org.jheartbeat.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import java.util.HashMap;
import java.util.Map;
import org.jheartbeat.core.config.LogSettings;
import org.slf4j.LoggerFactory;

/**
 * Configures logging for {@code hb daemon} from ha.cf's {@code logfile} (info and above) and
 * {@code debugfile} (everything), plus standard error, in Heartbeat's line format:
 * {@code 2026/11/29_19:20:01.123 node1 hb[1234]: WARN: node node2: is dead}. {@code logfacility}
 * (syslog) is not wired yet; the daemon says so at start.
 */
public final class LogSetup {
    private LogSetup() {
    }

    /**
     * Replaces the logback configuration.
     *
     * @param settings logfile / debugfile from ha.cf
     * @param nodeName shown in every line, like a syslog host name
     * @param debug    whether standard error gets debug lines too
     */
    public static void configureDaemon(LogSettings settings, String nodeName, boolean debug) {
        LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
        ctx.reset();
        @SuppressWarnings("unchecked")
        Map<String, String> rules = (Map<String, String>) ctx.getObject(ch.qos.logback.core.CoreConstants.PATTERN_RULE_REGISTRY);
        if (rules == null) {
            rules = new HashMap<>();
            ctx.putObject(ch.qos.logback.core.CoreConstants.PATTERN_RULE_REGISTRY, rules);
        }
        rules.put("hblevel", HeartbeatLevelConverter.class.getName());
        String pattern = "%d{yyyy/MM/dd_HH:mm:ss.SSS} " + nodeName + " hb[" + ProcessHandle.current().pid()
                + "]: %hblevel: %msg%n";
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.DEBUG);
        ctx.getLogger("io.netty").setLevel(Level.INFO);
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setTarget("System.err");
        add(ctx, root, console, "stderr", pattern, debug ? Level.DEBUG : Level.INFO);
        settings.logfile().ifPresent(p -> {
            FileAppender<ILoggingEvent> f = new FileAppender<>();
            f.setFile(p.toString());
            f.setAppend(true);
            add(ctx, root, f, "logfile", pattern, Level.INFO);
        });
        settings.debugfile().ifPresent(p -> {
            FileAppender<ILoggingEvent> f = new FileAppender<>();
            f.setFile(p.toString());
            f.setAppend(true);
            add(ctx, root, f, "debugfile", pattern, Level.DEBUG);
        });
    }

    private static void add(LoggerContext ctx, Logger root, OutputStreamAppender<ILoggingEvent> a, String name,
                            String pattern, Level threshold) {
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern(pattern);
        enc.start();
        ThresholdFilter filter = new ThresholdFilter();
        filter.setLevel(threshold.levelStr);
        filter.start();
        a.setContext(ctx);
        a.setName(name);
        a.setEncoder(enc);
        a.addFilter(filter);
        a.start();
        root.addAppender(a);
    }
}
