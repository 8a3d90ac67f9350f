package org.jheartbeat.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;

/**
 * logback's start-up configuration of every {@code hb} command, found by logback through the
 * {@link java.util.ServiceLoader} ({@code META-INF/services/ch.qos.logback.classic.spi.Configurator})
 * before its XML configurator (Joran): warnings and errors only, to standard error, as
 * {@code hb: WARN: message} (an exception's stack trace follows, as logback's pattern layout adds it),
 * and logback's own status messages are not printed. {@code hb daemon} then replaces it from ha.cf
 * ({@link LogSetup#configureDaemon}).
 *
 * <p>Programmatic rather than a {@code logback.xml} for the footprint of the daemon: Joran
 * loads about 600 classes (its XML parser included) and takes about 0.2 s of every start, while this
 * uses only the classes the daemon's own logging loads anyway.
 *
 * <p>An admin's {@code -Dlogback.configurationFile=FILE} still wins: then this configurator does nothing
 * and logback's usual configurators run.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class ClientLogConfigurator extends ContextAwareBase implements Configurator {
    /** The system property of logback's configuration file (logback's {@code ClassicConstants.CONFIG_FILE_PROPERTY}). */
    static final String CONFIG_FILE_PROPERTY = "logback.configurationFile";
    /** The line format of client messages on standard error ({@link LineLayout#client}). */
    static final String PATTERN = "hb: %level: %msg%n";

    /** Used by the {@link java.util.ServiceLoader}. */
    public ClientLogConfigurator() {
    }

    /**
     * Configures {@code ctx}: root logger at WARN with one console appender on {@code System.err}.
     *
     * @param ctx logback's context, not yet configured
     * @return {@code DO_NOT_INVOKE_NEXT_IF_ANY}, or {@code INVOKE_NEXT_IF_ANY} (nothing configured) when
     *         {@value #CONFIG_FILE_PROPERTY} is set
     */
    @Override
    public ExecutionStatus configure(LoggerContext ctx) {
        if (System.getProperty(CONFIG_FILE_PROPERTY) != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        NopStatusListener quiet = new NopStatusListener();
        ctx.getStatusManager().add(quiet);
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(ctx);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(LineLayout.client().encoder(ctx));
        stderr.start();
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
