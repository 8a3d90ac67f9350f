package org.jheartbeat.cli.command;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Logging of {@code hb lvs daemon}: the director's lines at INFO on standard error (the service
 * manager's journal) and, when ldirectord.cf's {@code logfile} (or {@code --log-file}) is a path,
 * appended to that file as ldirectord writes it: {@code [date|config|pid] message}. A syslog
 * facility name ({@code "local0"}) logs to standard error only.
 */
final class LvsLogging {
    private LvsLogging() {
    }

    static void configure(Path config, String logFile, boolean debug) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return;
        }
        Logger director = ctx.getLogger("org.jheartbeat.director");
        director.setLevel(debug ? Level.DEBUG : Level.INFO);
        if (logFile == null || !logFile.startsWith("/")) {
            if (logFile != null && !logFile.equals("none")) {
                director.info("logfile \"{}\" is a syslog facility: logging to standard error", logFile);
            }
            return;
        }
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern("[%d{EEE MMM d HH:mm:ss yyyy}|" + config.getFileName() + "|" + ProcessHandle.current().pid()
                + "] %msg%n");
        enc.start();
        FileAppender<ILoggingEvent> file = new FileAppender<>();
        file.setContext(ctx);
        file.setName("LDIRECTORD");
        file.setFile(logFile);
        file.setAppend(true);
        file.setEncoder(enc);
        file.start();
        if (file.isStarted()) {
            director.addAppender(file);
        } else {
            director.warn("cannot open logfile {}: logging to standard error only", logFile);
        }
    }
}
