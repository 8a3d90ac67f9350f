package org.jheartbeat.stonith.device.nut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The nut device against the real NUT 2.8.0 (Debian's nut-server and nut-client): a {@code upsd} on
 * 127.0.0.1 and a free high port, its own configuration directory under a temporary folder, and the
 * {@code dummy-ups} driver reading a {@code .dev} file. NUT 2.8.0's dummy-ups announces
 * {@code load.off} but does nothing on it (it logs {@code instcmd: unknown command [load.off]}), so
 * this test plays the UPS: when the driver's log shows the command arrived, it writes
 * {@code ups.status: OFF} into the {@code .dev} file, which dummy-ups re-reads when its mtime
 * changes; the device's confirm loop then sees OFF through the real {@code upsc}.
 */
class NutUpsdIT {
    private static final String PASSWORD = "Pw-" + Long.toHexString(Double.doubleToLongBits(Math.random()));
    private static final Duration HANG = Duration.ofSeconds(60);
    @TempDir
    static Path dir;
    private static Process driver;
    private static Process upsd;
    private static String ups;

    @BeforeAll
    static void startUpsd() throws Exception {
        assumeThat(Path.of("/lib/nut/upsd")).as("nut-server (scripts/setup.sh)").exists();
        assumeThat(Path.of("/usr/bin/upscmd")).as("nut-client (scripts/setup.sh)").exists();
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path state = Files.createDirectories(dir.resolve("state"));
        write("nut.conf", "MODE=netserver\n");
        write("ups.conf", "[dummy]\n  driver = dummy-ups\n  port = " + dir.resolve("dummy.dev") + "\n");
        write("upsd.conf", "LISTEN 127.0.0.1 " + port + "\n");
        write("upsd.users", "[fence]\n  password = " + PASSWORD + "\n  instcmds = ALL\n");
        write("dummy.dev", "ups.status: OL\nups.mfr: jheartbeat test\n");
        // older than any later write, so dummy-ups sees the OFF rewrite even within the same second
        Files.setLastModifiedTime(dir.resolve("dummy.dev"), FileTime.from(Instant.EPOCH));
        driver = daemon("drv.log", "/lib/nut/dummy-ups", "-a", "dummy", "-F", "-u", "root");
        awaitFile(state.resolve("dummy-ups-dummy"));
        upsd = daemon("upsd.log", "/lib/nut/upsd", "-F", "-u", "root");
        ups = "dummy@127.0.0.1:" + port;
        long end = System.nanoTime() + HANG.toNanos();
        while (!upsc().equals("OL")) {
            assertThat(System.nanoTime()).as("upsd did not answer: %s", log("upsd.log")).isLessThan(end);
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (Process p : new Process[] {upsd, driver}) {
            if (p != null) {
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    @Test
    void resetThroughRealUpscmdWithPasswordOnStdinOnly() throws Exception {
        // a wrapper records upscmd's argv (deterministic, where the sampler below may miss a short run)
        Path argvLog = dir.resolve("upscmd-argv.log");
        Path wrapper = write("upscmd-recording", "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + argvLog
                + "\nexec /usr/bin/upscmd \"$@\"\n");
        wrapper.toFile().setExecutable(true);
        NutDevice device = device(PASSWORD, Map.of("upscmd", wrapper.toString()));
        AtomicBoolean running = new AtomicBoolean(true);
        List<String> seen = new ArrayList<>();
        AtomicInteger passes = new AtomicInteger();
        Thread sampler = new Thread(() -> {
            byte[] secret = PASSWORD.getBytes(StandardCharsets.UTF_8);
            while (running.get()) {
                sampleCmdlines(secret, seen);
                passes.incrementAndGet();
            }
        });
        Thread ups = new Thread(NutUpsdIT::actOnLoadOff);
        sampler.start();
        ups.start();
        StonithResult result;
        try (var log = new Capture()) {
            result = device.reset(ResetRequest.GENERIC_RESET, "nodeb");
            running.set(false);
            sampler.join(HANG.toMillis());
            ups.join(HANG.toMillis());
            assertThat(log.lines()).noneMatch(l -> l.contains(PASSWORD));
            assertThat(result).as("log: %s; driver: %s", log.lines(), log("drv.log")).isEqualTo(StonithResult.OK);
        }
        assertThat(log("upsd.log")).contains("fence@127.0.0.1 did load.off on dummy");
        assertThat(Files.readString(argvLog)).contains("-u fence " + NutUpsdIT.ups + " load.off")
                .doesNotContain(PASSWORD).doesNotContain("-p");
        assertThat(passes.get()).isPositive();
        assertThat(seen).as("command lines showing the password").isEmpty();
    }

    @Test
    void wrongPasswordIsResetFailWithUpsdsOwnError() throws Exception {
        String wrong = "Wrong-" + PASSWORD;
        try (var log = new Capture()) {
            assertThat(device(wrong, Map.of()).reset(ResetRequest.GENERIC_RESET, "nodeb"))
                    .isEqualTo(StonithResult.RESETFAIL);
            assertThat(log.lines()).anyMatch(l -> l.startsWith("ERROR nut: upscmd " + ups + " load.off failed (exit 1)")
                    && l.contains("ERR ACCESS-DENIED"));
            assertThat(log.lines()).noneMatch(l -> l.contains(wrong) || l.contains("Password:"));
        }
    }

    private static NutDevice device(String password, Map<String, String> extra) throws Exception {
        NutDevice d = new NutDevice(new OsProcessRunner(), Sleeper.system());
        var params = new java.util.HashMap<>(Map.of("hostname", "nodeb", "ups", ups, "username", "fence",
                "password", password, "reset", "load.off", "repeat", "1", "confirmtimeout", "60"));
        params.putAll(extra);
        d.configure(params);
        return d;
    }

    /** The UPS's part: once the driver logged the command, the status becomes OFF. */
    private static void actOnLoadOff() {
        try {
            long end = System.nanoTime() + HANG.toNanos();
            while (!log("drv.log").contains("instcmd: unknown command [load.off]") && System.nanoTime() < end) {
                Thread.sleep(100);
            }
            write("dummy.dev", "ups.status: OFF\nups.mfr: jheartbeat test\n");
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One pass over every process's command line; records those containing the secret. */
    private static void sampleCmdlines(byte[] secret, List<String> seen) {
        try (var procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : procs) {
                try {
                    byte[] cmd = Files.readAllBytes(p.resolve("cmdline"));
                    String s = new String(cmd, StandardCharsets.UTF_8);
                    if (s.contains(new String(secret, StandardCharsets.UTF_8))) {
                        synchronized (seen) {
                            seen.add(p + ": " + s.replace('\0', ' '));
                        }
                    }
                } catch (IOException gone) {
                    // the process ended between listing and reading
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String upsc() throws Exception {
        Process p = new ProcessBuilder("upsc", ups, "ups.status")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start(); // stderr: "Init SSL without ..."
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    private static Process daemon(String logName, String... argv) throws IOException {
        ProcessBuilder b = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(dir.resolve(logName).toFile()).redirectInput(ProcessBuilder.Redirect.from(
                        new java.io.File("/dev/null")));
        b.environment().put("NUT_CONFPATH", dir.toString());
        b.environment().put("NUT_STATEPATH", dir.resolve("state").toString());
        return b.start();
    }

    private static void awaitFile(Path file) throws Exception {
        long end = System.nanoTime() + HANG.toNanos();
        while (!Files.exists(file)) {
            assertThat(System.nanoTime()).as("driver socket %s: %s", file, log("drv.log")).isLessThan(end);
            Thread.sleep(100);
        }
    }

    private static Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        f.toFile().setReadable(false, false);
        f.toFile().setReadable(true, true);
        return f;
    }

    private static String log(String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    /** The device's log events as "LEVEL message". */
    private static final class Capture implements AutoCloseable {
        private final Logger logger = (Logger) LoggerFactory.getLogger(NutDevice.class);
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

        Capture() {
            logger.setLevel(Level.INFO);
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
}
