package org.jheartbeat.resources.fakes;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Collects the events of one logger as {@code "LEVEL message"}, with {@code "ERROR CRIT message"} for
 * events carrying a marker named CRIT. Close it to detach.
 */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Level before;

    /** @param loggerOf the class whose logger (named after it) is captured, from INFO up */
    public LogCapture(Class<?> loggerOf) {
        this.logger = (Logger) LoggerFactory.getLogger(loggerOf);
        this.before = logger.getLevel();
        logger.setLevel(Level.INFO);
        appender.start();
        logger.addAppender(appender);
    }

    /** @return every event so far, formatted, in order */
    public List<String> lines() {
        synchronized (appender.list) {
            return appender.list.stream().map(e -> e.getLevel() + " "
                    + (e.getMarkerList() != null && e.getMarkerList().stream().anyMatch(m -> m.getName().equals("CRIT"))
                            ? "CRIT " : "")
                    + e.getFormattedMessage()).toList();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(before);
    }
}
