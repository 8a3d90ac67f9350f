package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.error.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The daemon's start without picocli ({@link DirectDaemon}): which calls take it, and that they answer as picocli's path. */
class DirectDaemonTest {
    @Test
    void onlyWellFormedDaemonStartsTakeTheDirectPath() {
        assertThat(DirectDaemon.parse(new String[] {"daemon"})).isEqualTo(new DirectDaemon.Call(Path.of("/etc/ha.d"),
                Path.of("/var/lib/jheartbeat"), Optional.empty(), false));
        // the systemd unit's line
        assertThat(DirectDaemon.parse(new String[] {"daemon", "--config-dir", "/etc/ha.d", "--state-dir",
            "/var/lib/jheartbeat"})).isEqualTo(new DirectDaemon.Call(Path.of("/etc/ha.d"), Path.of("/var/lib/jheartbeat"),
                Optional.empty(), false));
        assertThat(DirectDaemon.parse(new String[] {"daemon", "--debug", "--node-name", "n1", "--state-dir", "/s",
            "--config-dir", "/c"})).isEqualTo(new DirectDaemon.Call(Path.of("/c"), Path.of("/s"), Optional.of("n1"), true));
        String[][] others = {
            {}, {"status"}, {"daemon", "--help"}, {"daemon", "-h"}, {"daemon", "--version"}, {"daemon", "-V"},
            {"daemon", "--self-fence-command", "reboot"}, {"daemon", "--debug", "--debug"}, {"daemon", "--node-name"},
            {"daemon", "--config-dir", "/a", "--config-dir", "/b"}, {"daemon", "--config-dir", "--debug"},
            {"daemon", "--config-dir", ""}, {"daemon", "--config-dir=/c"}, {"daemon", "@opts"},
            {"daemon", "--state-dir", "@opts"}, {"daemon", "extra"}, {"daemon", "--bogus"}, {"daemon", "--"},
            {"daemon", "--config-dir", "a\0b"},
        };
        for (String[] args : others) {
            assertThat(DirectDaemon.parse(args)).as(String.join(" ", args)).isNull();
        }
    }

    /** Calls the daemon refuses before it starts: the same output and exit code by both paths. */
    @Test
    void theDirectPathAnswersAsTheFullCommandLine(@TempDir Path dir) throws Exception {
        Path badConfig = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(badConfig.resolve("ha.cf"), "keepalive 1\nnonsense here\n");
        String[][] cases = {
            {"daemon", "--config-dir", dir.resolve("ha.d").toString(), "--state-dir", dir.resolve("s1").toString()},
            {"daemon", "--config-dir", badConfig.toString(), "--state-dir", dir.resolve("s2").toString(), "--debug"},
            {"daemon", "--state-dir", dir.resolve("s3").toString(), "--config-dir", badConfig.toString(),
                "--node-name", "nobody"},
        };
        for (String[] args : cases) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cl = CommandLines.newCommandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            HbRun full = new HbRun(cl.execute(args), out.toString(), err.toString());
            StringWriter dout = new StringWriter();
            StringWriter derr = new StringWriter();
            Integer code = Main.direct(args, new PrintWriter(dout, true), new PrintWriter(derr, true));
            assertThat(new HbRun(code, dout.toString(), derr.toString())).as(String.join(" ", args)).isEqualTo(full);
            assertThat(full.code()).as(String.join(" ", args)).isEqualTo(ExitCodes.CONFIG);
        }
    }

    /**
     * A daemon start in a JVM of its own, as the unit runs it (here refused for its configuration, which is as far
     * as a test without root goes): no picocli class is loaded (the JVM's class-load log).
     */
    @Test
    void aDirectStartLoadsNoPicocliClass(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("classes.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + log, "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "daemon", "--config-dir", dir.resolve("ha.d").toString(), "--state-dir",
                dir.resolve("state").toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isEqualTo(ExitCodes.CONFIG);
        assertThat(output).contains("config directory does not exist");
        List<String> loaded = Files.readAllLines(log);
        assertThat(loaded).as("the JVM's class-load log").anyMatch(l -> l.contains(" org.jheartbeat.cli.daemon.Daemon "));
        assertThat(loaded).noneMatch(l -> l.contains(" picocli.")).noneMatch(l -> l.contains(" org.jheartbeat.cli.CommandLines "));
    }
}
