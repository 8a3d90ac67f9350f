package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.status.NopStatusListener;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class ClientLogConfiguratorTest {
    @Test
    void registeredForLogbacksServiceLoader() {
        assertThat(ServiceLoader.load(Configurator.class).stream().map(ServiceLoader.Provider::type))
                .contains(ClientLogConfigurator.class);
    }

    @Test
    void warningsAndErrorsOnlyToStderrAsHbLevelMessage() {
        LoggerContext ctx = new LoggerContext();
        ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        assertThat(new ClientLogConfigurator().configure(ctx))
                .isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        assertThat(ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.WARN);
        assertThat(ctx.getStatusManager().getCopyOfStatusListenerList())
                .anyMatch(l -> l instanceof NopStatusListener);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            Logger log = ctx.getLogger("org.jheartbeat.x");
            log.info("not shown");
            log.warn("peer {} is late", "node2");
            log.error("broken", new IllegalStateException("because"));
        } finally {
            System.setErr(saved);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("hb: WARN: peer node2 is late" + System.lineSeparator()
                + "hb: ERROR: broken" + System.lineSeparator() + "java.lang.IllegalStateException: because");
        assertThat(text).doesNotContain("not shown");
    }

    @Test
    void anAdminsConfigurationFileWins() {
        LoggerContext ctx = new LoggerContext();
        String saved = System.getProperty(ClientLogConfigurator.CONFIG_FILE_PROPERTY);
        System.setProperty(ClientLogConfigurator.CONFIG_FILE_PROPERTY, "/etc/jheartbeat/logback.xml");
        try {
            assertThat(new ClientLogConfigurator().configure(ctx))
                    .isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
            assertThat(ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).isFalse();
        } finally {
            if (saved == null) {
                System.clearProperty(ClientLogConfigurator.CONFIG_FILE_PROPERTY);
            } else {
                System.setProperty(ClientLogConfigurator.CONFIG_FILE_PROPERTY, saved);
            }
        }
    }
}
