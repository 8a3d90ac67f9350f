package org.jheartbeat.sync.replication;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Collects the formatted messages of logger "sync". */
final class LogCapture implements AutoCloseable {
    private final Logger logger = (Logger) LoggerFactory.getLogger("sync");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    LogCapture() {
        appender.start();
        logger.addAppender(appender);
    }

    List<String> lines() {
        synchronized (appender.list) {
            return appender.list.stream().map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
    }
}
