package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.jheartbeat.core.config.LogSettings;
import org.jheartbeat.core.time.MonotonicClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.MarkerFactory;

class LogSetupTest {
    private static final String PREFIX = "[0-9]{4}/[0-9]{2}/[0-9]{2}_[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} node1 hb\\["
            + ProcessHandle.current().pid() + "\\]: ";

    private final LoggerContext ctx = new LoggerContext();

    {
        ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter()); // as slf4j's provider does
    }

    private static OutputStreamAppender<ILoggingEvent> stderr(java.io.OutputStream out) {
        OutputStreamAppender<ILoggingEvent> a = new OutputStreamAppender<>();
        a.setOutputStream(out);
        return a;
    }

    @Test
    void heartbeatsLineFormatOnEveryOutputAndEachOutputItsLevels(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path logfile = dir.resolve("ha-log");
        Path debugfile = dir.resolve("ha-debug");
        DaemonLog log = LogSetup.configure(ctx, new LogSettings(Optional.of(logfile), Optional.of(debugfile),
                Optional.empty()), "node1", false, stderr(err), MonotonicClock.system());
        Logger hb = ctx.getLogger("heartbeat");
        hb.info("Link node2:eth1 up.");
        hb.debug("a debug line");
        hb.warn("node node2: is dead");
        hb.error(MarkerFactory.getMarker("CRIT"), "STONITH of node2 failed.  Retrying...");
        hb.info("Heartbeat shutdown complete.");
        log.close();

        String expected = PREFIX + "info: Link node2:eth1 up\\.\n" + PREFIX + "WARN: node node2: is dead\n"
                + PREFIX + "CRIT: STONITH of node2 failed\\.  Retrying\\.\\.\\.\n"
                + PREFIX + "info: Heartbeat shutdown complete\\.\n";
        assertThat(err.toString(StandardCharsets.UTF_8)).matches(expected);
        assertThat(Files.readString(logfile)).matches(expected);
        assertThat(Files.readString(debugfile)).matches(PREFIX + "info: Link node2:eth1 up\\.\n"
                + PREFIX + "debug: a debug line\n" + PREFIX + "WARN: node node2: is dead\n(.*\n){2}");
        assertThat(log.droppedLines()).isZero();
    }

    /** The daemon's configuration warnings, printed on stderr before the outputs exist, reach file and syslog once. */
    @Test
    void aLineAlreadyOnStderrGoesToTheFileAndSyslogOnly(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path logfile = dir.resolve("ha-log");
        java.util.List<String> records = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        DaemonLog log = LogSetup.configure(ctx, new LogSettings(Optional.of(logfile), Optional.empty(),
                Optional.of("daemon")), "node1", false, stderr(err), MonotonicClock.system(),
                socket -> new SyslogStream.DatagramSender() {
                    @Override
                    public void send(byte[] record) {
                        records.add(new String(record, StandardCharsets.UTF_8));
                    }

                    @Override
                    public String describe() {
                        return socket.toString();
                    }

                    @Override
                    public void close() {
                    }
                });
        ctx.getLogger("heartbeat").warn(LogSetup.ALREADY_ON_STDERR, "{}", "/etc/ha.d/ha.cf:9: warning: something");
        ctx.getLogger("heartbeat").info("Link node2:eth1 up.");
        log.close();
        assertThat(Files.readString(logfile)).matches(PREFIX + "WARN: /etc/ha\\.d/ha\\.cf:9: warning: something\n"
                + PREFIX + "info: Link node2:eth1 up\\.\n");
        assertThat(err.toString(StandardCharsets.UTF_8)).matches(PREFIX + "info: Link node2:eth1 up\\.\n");
        assertThat(records).hasSize(2);
        assertThat(records.get(0)).startsWith("<28>").endsWith("]: WARN: /etc/ha.d/ha.cf:9: warning: something");
    }

    @Test
    void aLogFileThatCannotBeWrittenIsReportedOnceOnStderrAndNeverStopsTheOthers(@TempDir Path dir)
            throws IOException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Files.writeString(dir.resolve("not-a-dir"), "");
        Path debugfile = dir.resolve("not-a-dir/ha-debug"); // its parent is a file: every open fails
        Path logfile = dir.resolve("ha-log");
        DaemonLog log = LogSetup.configure(ctx, new LogSettings(Optional.of(logfile), Optional.of(debugfile),
                Optional.empty()), "node1", false, stderr(err), MonotonicClock.system());
        Logger hb = ctx.getLogger("heartbeat");
        for (int i = 0; i < 50; i++) {
            hb.info("line {}", i);
        }
        // the report comes from the debug file's own writer thread: wait for it (the bound only catches a
        // hang; on a loaded machine that thread may not have run before close() otherwise)
        await().atMost(Duration.ofSeconds(60)).until(() -> err.toString(StandardCharsets.UTF_8)
                .contains("cannot write log file " + debugfile) && err.toString(StandardCharsets.UTF_8).contains("line 49"));
        log.close();
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(stderr.split("cannot write log file " + debugfile, -1)).as(stderr).hasSize(2);
        assertThat(stderr).contains("ERROR: cannot write log file " + debugfile + ": ").contains("line 49");
        assertThat(Files.readString(logfile)).contains("line 0").contains("line 49")
                .contains("cannot write log file " + debugfile);
    }

    @Test
    void aStuckStderrDropsLinesCountsThemAndSaysSoInTheLogFile(@TempDir Path dir) throws IOException {
        BlockingOutput err = new BlockingOutput();
        Path logfile = dir.resolve("ha-log");
        DaemonLog log = LogSetup.configure(ctx, new LogSettings(Optional.of(logfile), Optional.empty(),
                Optional.empty()), "node1", false, stderr(err), MonotonicClock.system());
        Logger hb = ctx.getLogger("heartbeat");
        for (int i = 0; i < 3 * LogSetup.QUEUE_LINES; i++) {
            hb.info("line {}", i);
        }
        assertThat(log.droppedLines()).isGreaterThan(0);
        // the watcher looks once a second; the bound only catches a hang
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.readString(logfile)
                .matches("(?s).*\n" + PREFIX + "WARN: [0-9]+ log lines dropped \\(log output too slow\\)\n.*"));
        err.release();
        log.close();
        assertThat(err.text()).contains("info: line 0\n");
    }

    @Test
    void withLogfacilityInfoAndAboveGoToSyslogAsLocal0RecordsTaggedJheartbeat(@TempDir Path dir) throws IOException {
        java.util.List<String> records = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        DaemonLog log = LogSetup.configure(ctx, new LogSettings(Optional.empty(), Optional.empty(),
                Optional.of("local0")), "node1", false, stderr(err), MonotonicClock.system(), socket -> {
                    assertThat(socket).isEqualTo(Path.of("/dev/log"));
                    return new SyslogStream.DatagramSender() {
                        @Override
                        public void send(byte[] record) {
                            records.add(new String(record, StandardCharsets.UTF_8));
                        }

                        @Override
                        public String describe() {
                            return socket.toString();
                        }

                        @Override
                        public void close() {
                        }
                    };
                });
        Logger hb = ctx.getLogger("heartbeat");
        hb.info("Link node2:eth1 up.");
        hb.debug("a debug line");
        hb.warn("node node2: is dead");
        hb.error("Resource group web failed to start");
        hb.error(MarkerFactory.getMarker("CRIT"), "STONITH of node2 failed.  Retrying...");
        log.close();
        String head = "[A-Z][a-z]{2} [ 1-3][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} jheartbeat\\[" + ProcessHandle.current().pid()
                + "\\]: ";
        assertThat(records).hasSize(4);
        assertThat(records.get(0)).matches("<134>" + head + "info: Link node2:eth1 up\\.");
        assertThat(records.get(1)).matches("<132>" + head + "WARN: node node2: is dead");
        assertThat(records.get(2)).matches("<131>" + head + "ERROR: Resource group web failed to start");
        assertThat(records.get(3)).matches("<130>" + head + "CRIT: STONITH of node2 failed\\.  Retrying\\.\\.\\.");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("info: Link node2:eth1 up.")
                .doesNotContain("syslog");
    }

    @Test
    void logfacilityNoneOrAnUnusableSocketLeavesTheOtherOutputsAndSaysWhy(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        DaemonLog none = LogSetup.configure(ctx, new LogSettings(Optional.empty(), Optional.empty(),
                Optional.of("none")), "node1", false, stderr(err), MonotonicClock.system(), socket -> {
                    throw new AssertionError("logfacility none opens no socket");
                });
        ctx.getLogger("heartbeat").info("one");
        none.close();
        ByteArrayOutputStream err2 = new ByteArrayOutputStream();
        DaemonLog broken = LogSetup.configure(ctx, new LogSettings(Optional.empty(), Optional.empty(),
                Optional.of("daemon")), "node1", false, stderr(err2), MonotonicClock.system(), socket -> {
                    throw new IOException("Netty's native epoll transport is not available here: test");
                });
        ctx.getLogger("heartbeat").info("two");
        broken.close();
        assertThat(broken.syslogRecordsLost()).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("info: one").doesNotContain("syslog");
        assertThat(err2.toString(StandardCharsets.UTF_8)).contains("WARN: logfacility daemon: cannot log to syslog"
                + " (Netty's native epoll transport is not available here: test); logging to files and stderr only")
                .contains("info: two");
    }

    @Test
    void aSyslogSocketThatRefusesIsReportedOnceAndItsRecordsCounted(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path logfile = dir.resolve("ha-log");
        DaemonLog log = LogSetup.configure(ctx, new LogSettings(Optional.of(logfile), Optional.empty(),
                Optional.of("local0")), "node1", false, stderr(err), MonotonicClock.system(), socket ->
                new SyslogStream.DatagramSender() {
                    @Override
                    public void send(byte[] record) throws IOException {
                        throw new IOException("Connection refused");
                    }

                    @Override
                    public String describe() {
                        return socket.toString();
                    }

                    @Override
                    public void close() {
                    }
                });
        Logger hb = ctx.getLogger("heartbeat");
        for (int i = 0; i < 20; i++) {
            hb.info("line {}", i);
        }
        // the syslog output's own writer thread sends (and fails); the bound only catches a hang
        await().atMost(Duration.ofSeconds(60)).until(() -> log.syslogRecordsLost() >= 20);
        log.close();
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text.split("does not take records", -1)).as(text).hasSize(2);
        assertThat(text).contains("WARN: syslog socket /dev/log does not take records (Connection refused); they are"
                + " dropped and counted until it does (retrying every 10 s)").contains("info: line 19");
        assertThat(Files.readString(logfile)).contains("info: line 19").contains("does not take records");
    }
}
