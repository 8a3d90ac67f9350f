package org.jheartbeat.cli.command;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import java.nio.file.Path;
import org.jheartbeat.cli.logging.LogSetup;
import org.jheartbeat.cli.logging.SyslogFacility;
import org.slf4j.LoggerFactory;

/**
 * Logging of {@code hb lvs daemon}: the director's lines at INFO on standard error (the service
 * manager's journal) and, as ldirectord's {@code logfile} (or {@code --log-file}) says: a path is
 * appended to as ldirectord writes it ({@code [date|config|pid] message}); a syslog facility
 * ({@code local0}, {@code daemon}, …, as ldirectord.cf(5)) sends the lines to syslog ({@code /dev/log})
 * with ident {@code ldirectord}, as ldirectord does. Both go through a bounded queue: a slow disk or
 * syslog drops and counts lines, never stalls the director's decisions.
 */
final class LvsLogging {
    /** The syslog socket. */
    static final Path SYSLOG_SOCKET = Path.of("/dev/log");
    /** The ident of the director's syslog records, as ldirectord's. */
    static final String SYSLOG_IDENT = "ldirectord";

    /** The queued outputs added by {@link #configure}, written out and stopped by {@link #close}. */
    private static final java.util.List<ch.qos.logback.core.Appender<?>> OUTPUTS =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    private LvsLogging() {
    }

    /** Writes out what the outputs still queue (at most about 1 s each) and stops them: at the director's exit. */
    static void close() {
        Logger director = LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx
                ? ctx.getLogger("org.jheartbeat.director") : null;
        for (ch.qos.logback.core.Appender<?> a : OUTPUTS) {
            a.stop();
            if (director != null) {
                director.detachAppender(a.getName());
            }
        }
        OUTPUTS.clear();
    }

    static void configure(Path config, String logFile, boolean debug) {
        configure(config, logFile, debug, SYSLOG_SOCKET);
    }

    /** {@link #configure(Path, String, boolean)} with the syslog socket given (tests). */
    static void configure(Path config, String logFile, boolean debug, Path syslogSocket) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return;
        }
        Logger director = ctx.getLogger("org.jheartbeat.director");
        director.setLevel(debug ? Level.DEBUG : Level.INFO);
        if (logFile == null || logFile.equals("none")) {
            return;
        }
        java.util.concurrent.atomic.LongAdder dropped = new java.util.concurrent.atomic.LongAdder();
        if (!logFile.startsWith("/")) {
            java.util.Optional<SyslogFacility> facility = SyslogFacility.fromHaCf(logFile);
            if (facility.isEmpty()) {
                director.warn("logfile \"{}\" is neither a path nor a syslog facility: logging to standard error only",
                        logFile);
                return;
            }
            try {
                OUTPUTS.add(LogSetup.syslogOutput(ctx, director, facility.get(), SYSLOG_IDENT, syslogSocket, dropped));
            } catch (java.io.IOException e) {
                director.warn("logfile \"{}\": cannot log to syslog ({}); logging to standard error only", logFile,
                        e.getMessage());
            }
            return;
        }
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern("[%d{EEE MMM d HH:mm:ss yyyy}|" + config.getFileName() + "|" + ProcessHandle.current().pid()
                + "] %msg%n");
        OUTPUTS.add(LogSetup.fileOutput(ctx, director, Path.of(logFile), enc, dropped));
    }
}
