package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.jheartbeat.cli.error.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MainTest {
    private static HbRun run(Supplier<CommandLine> commandLine, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = commandLine.get();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new HbRun(code, out.toString(), err.toString());
    }

    @Test
    void onlyADaemonStartWithoutHelpOrVersionTakesTheShortPath() {
        assertThat(CommandLines.isDaemonRun(new String[] {"daemon", "--config-dir", "/etc/ha.d"})).isTrue();
        assertThat(CommandLines.isDaemonRun(new String[] {"daemon"})).isTrue();
        assertThat(CommandLines.isDaemonRun(new String[] {})).isFalse();
        assertThat(CommandLines.isDaemonRun(new String[] {"status", "daemon"})).isFalse();
        assertThat(CommandLines.isDaemonRun(new String[] {"daemon", "--help"})).isFalse();
        assertThat(CommandLines.isDaemonRun(new String[] {"daemon", "-h"})).isFalse();
        assertThat(CommandLines.isDaemonRun(new String[] {"daemon", "-V"})).isFalse();
        assertThat(CommandLines.isDaemonRun(new String[] {"daemon", "--version"})).isFalse();
    }

    @Test
    void theDaemonsShortPathAnswersAsTheFullCommandLine(@TempDir Path dir) throws Exception {
        Path noConfig = dir.resolve("ha.d");
        Path badConfig = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(badConfig.resolve("ha.cf"), "keepalive 1\nnonsense here\n");
        String[][] cases = {
            {"daemon", "--bogus"},
            {"daemon", "extra"},
            {"daemon", "--node-name"},
            {"daemon", "--config-dir", noConfig.toString(), "--state-dir", dir.resolve("s1").toString()},
            {"daemon", "--config-dir", badConfig.toString(), "--state-dir", dir.resolve("s2").toString()},
        };
        for (String[] args : cases) {
            HbRun full = run(CommandLines::newCommandLine, args);
            HbRun quick = run(CommandLines::newDaemonCommandLine, args);
            assertThat(quick).as(String.join(" ", args)).isEqualTo(full);
            assertThat(full.code()).as(String.join(" ", args)).isNotZero();
        }
    }

    @Test
    void statusAndClStatusTakeTheShortPathUnlessHelpOrVersionIsAsked() {
        assertThat(CommandLines.isShortPath(new String[] {"status", "--state-dir", "/var/lib/jheartbeat"})).isTrue();
        assertThat(CommandLines.isShortPath(new String[] {"cl-status", "--state-dir", "/s", "--", "hbstatus"})).isTrue();
        assertThat(CommandLines.isShortPath(new String[] {"cl-status", "--", "-h"})).as("cl_status's own -h").isTrue();
        assertThat(CommandLines.isShortPath(new String[] {"status", "--help"})).isFalse();
        assertThat(CommandLines.isShortPath(new String[] {"cl-status", "-V", "--", "hbstatus"})).isFalse();
        assertThat(CommandLines.isShortPath(new String[] {"standby"})).isFalse();
        assertThat(CommandLines.isShortPath(new String[] {})).isFalse();
    }

    @Test
    void theShortPathsOfStatusAndClStatusAnswerAsTheFullCommandLine(@TempDir Path dir) {
        String noDaemon = dir.resolve("state").toString();
        String[][] cases = {
            {"status", "--bogus"},
            {"status", "--state-dir", noDaemon},
            {"status", "--state-dir", noDaemon, "--json"},
            {"status", "--interval", "x"},
            {"cl-status", "--state-dir", noDaemon, "--", "hbstatus"},
            {"cl-status", "--state-dir", noDaemon, "--", "nodestatus", "node2"},
            {"cl-status", "--state-dir", noDaemon, "--", "bogus"},
            {"cl-status", "--state-dir", noDaemon},
            {"cl-status", "--state-dir"},
        };
        for (String[] args : cases) {
            HbRun full = run(CommandLines::newCommandLine, args);
            HbRun quick = run(() -> CommandLines.newShortCommandLine(args[0]), args);
            assertThat(quick).as(String.join(" ", args)).isEqualTo(full);
            assertThat(full.code()).as(String.join(" ", args)).isNotZero();
        }
    }

    @Test
    void onlyWellFormedStatusAndClStatusCallsTakeTheDirectPath() {
        assertThat(Main.parseDirect(new String[] {"status"}))
                .isEqualTo(new Main.DirectCall("status", Path.of("/var/lib/jheartbeat"), false, List.of()));
        assertThat(Main.parseDirect(new String[] {"status", "--json", "--state-dir", "/s"}))
                .isEqualTo(new Main.DirectCall("status", Path.of("/s"), true, List.of()));
        assertThat(Main.parseDirect(new String[] {"cl-status", "--state-dir=/s", "--", "-m", "nodestatus", "n2"}))
                .isEqualTo(new Main.DirectCall("cl-status", Path.of("/s"), false, List.of("-m", "nodestatus", "n2")));
        String[][] others = {
            {}, {"standby"}, {"status", "--watch"}, {"status", "--help"}, {"status", "--json", "--json"},
            {"status", "--state-dir"}, {"status", "--state-dir", "/a", "--state-dir", "/b"}, {"status", "x"},
            {"cl-status", "hbstatus"}, {"cl-status", "--state-dir", "/s"}, {"cl-status", "--json", "--", "hbstatus"},
            {"status", "--state-dir", "@opts"}, {"cl-status", "--", "@opts"},
        };
        for (String[] args : others) {
            assertThat(Main.parseDirect(args)).as(String.join(" ", args)).isNull();
        }
    }

    @Test
    void theDirectPathAnswersAsTheFullCommandLine(@TempDir Path dir) {
        String noDaemon = dir.resolve("state").toString();
        String[][] cases = {
            {"status", "--state-dir", noDaemon},
            {"status", "--state-dir=" + noDaemon, "--json"},
            {"cl-status", "--state-dir", noDaemon, "--", "hbstatus"},
            {"cl-status", "--state-dir", noDaemon, "--", "nodestatus", "node2"},
            {"cl-status", "--state-dir", noDaemon, "--", "bogus"},
            {"cl-status", "--state-dir", noDaemon, "--"},
        };
        for (String[] args : cases) {
            HbRun full = run(CommandLines::newCommandLine, args);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            Integer code = Main.direct(args, new PrintWriter(out, true), new PrintWriter(err, true));
            assertThat(new HbRun(code, out.toString(), err.toString())).as(String.join(" ", args)).isEqualTo(full);
            assertThat(full.code()).as(String.join(" ", args)).isNotZero();
        }
    }

    /**
     * A direct call against a live control socket, in a JVM of its own as {@code cl_status} runs it: the answer
     * is printed and no picocli class, no lambda of ours is loaded (the class-load log of the JVM: each
     * class costs the start time of {@code hb status} and {@code cl_status}). The socket is served here by a thread that reads
     * the request line and answers as the daemon does.
     */
    @Test
    void aDirectCallLoadsNoPicocliClass(@TempDir Path dir) throws Exception {
        Path state = Files.createDirectories(dir.resolve("state"));
        Path socket = new org.jheartbeat.core.state.StateDirectory(state).controlSocket();
        java.util.concurrent.atomic.AtomicReference<String> asked = new java.util.concurrent.atomic.AtomicReference<>();
        try (java.nio.channels.ServerSocketChannel server =
                     java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            server.bind(java.net.UnixDomainSocketAddress.of(socket));
            Thread daemon = new Thread(() -> {
                try (java.nio.channels.SocketChannel c = server.accept()) {
                    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
                            java.nio.channels.Channels.newInputStream(c), java.nio.charset.StandardCharsets.US_ASCII));
                    asked.set(in.readLine());
                    c.write(java.nio.ByteBuffer.wrap("OK\n0\nHeartbeat is running on this machine.\n"
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
                } catch (java.io.IOException e) {
                    asked.set("server failed: " + e);
                }
            });
            daemon.start();
            Path log = dir.resolve("classes.log");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xlog:class+load=info:file=" + log, "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "cl-status", "--state-dir", state.toString(), "--", "hbstatus")
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            daemon.join(10_000);
            assertThat(p.exitValue()).as(output).isZero();
            assertThat(output).isEqualTo("Heartbeat is running on this machine.\n");
            assertThat(asked.get()).isEqualTo("cl_status hbstatus");
            List<String> loaded = Files.readAllLines(log);
            assertThat(loaded).as("the JVM's class-load log").anyMatch(l -> l.contains(" org.jheartbeat.cli.Main "));
            assertThat(loaded).noneMatch(l -> l.contains(" picocli."))
                    .noneMatch(l -> l.contains(" org.jheartbeat.cli.CommandLines "))
                    .noneMatch(l -> l.contains(" org.jheartbeat.cli.Main$$Lambda"));
        }
    }

    /** A mistyped command or option names itself and what was meant, exit 64 (tryout: picocli said "Unmatched argument"). */
    @Test
    void aMistypedCommandOrOptionGetsADidYouMean() {
        HbRun cmd = HbRun.hb("stauts");
        assertThat(cmd.code()).isEqualTo(64);
        assertThat(cmd.err()).isEqualTo("hb: unknown command 'stauts' of hb; did you mean 'status'?\n"
                + "Try 'hb --help' for more information.\n");
        HbRun sub = HbRun.hb("lvs", "chek", "ldirectord.cf");
        assertThat(sub.code()).isEqualTo(64);
        assertThat(sub.err()).startsWith("hb: unknown command 'chek' of hb lvs; did you mean 'check'?\n");
        HbRun opt = HbRun.hb("config", "check", "--config-dri", "/etc/ha.d");
        assertThat(opt.code()).isEqualTo(64);
        assertThat(opt.err()).startsWith("hb: unknown option '--config-dri' of hb config check; did you mean"
                + " '--config-dir'?\n");
    }

    /** An unknown command is the mistake to report even with --help after it: exit 64, not the top usage and 0. */
    @Test
    void anUnknownCommandWithHelpIsAUsageError() {
        HbRun r = HbRun.hb("UNKNOWN", "--help");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("hb: unknown command 'UNKNOWN' of hb\nTry 'hb --help' for more information.\n");
        HbRun sub = HbRun.hb("lvs", "chek", "--help");
        assertThat(sub.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(sub.err()).startsWith("hb: unknown command 'chek' of hb lvs; did you mean 'check'?\n");
        HbRun help = HbRun.hb("lvs", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).startsWith("Usage: hb lvs");
    }

    /** An empty --self-fence-command is refused before anything starts (tryout: the daemon started with it). */
    @Test
    void anEmptySelfFenceCommandIsAUsageError(@TempDir Path dir) {
        HbRun r = HbRun.hb("daemon", "--self-fence-command", " ", "--config-dir", dir.toString(), "--state-dir",
                dir.resolve("state").toString());
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).isEqualTo("hb: --self-fence-command is empty: give the command that resets this node, e.g."
                + " 'systemctl reboot --force --force', or leave the option out\n");
        assertThat(dir.resolve("state")).doesNotExist();
    }
}
