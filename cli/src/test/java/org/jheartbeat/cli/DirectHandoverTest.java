package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.state.StateDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb standby|takeover|failback} without picocli ({@link Main#direct}, {@link DirectHandover}): which calls
 * take the direct path, and that it answers byte for byte as picocli's path does (output, stderr, exit code, the
 * request the daemon gets) against a stand-in daemon: done, refused (75), failed (1), and with no daemon (3).
 */
class DirectHandoverTest {
    @TempDir
    Path dir;

    /** The direct call, or null if {@code args} went to picocli. */
    private static HbRun direct(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Integer code = Main.direct(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return code == null ? null : new HbRun(code, out.toString(), err.toString());
    }

    /** Shapes run by both paths; STATE is replaced by the stand-in daemon's state directory. */
    private static final String[][] SHAPES = {
        {"standby", "--state-dir", "STATE"},
        {"standby", "all", "--state-dir=STATE"},
        {"standby", "local", "--state-dir", "STATE", "--timeout", "5"},
        {"standby", "--timeout=3600", "foreign", "--state-dir=STATE"},
        {"standby", "failback", "--state-dir", "STATE"},
        {"takeover", "--state-dir", "STATE"},
        {"takeover", "--state-dir=STATE", "failback", "--timeout=1"},
        {"takeover", "local", "--timeout", "120", "--state-dir", "STATE"},
        {"failback", "--state-dir", "STATE"},
        {"failback", "--timeout", "30", "--state-dir=STATE"},
    };

    private static String[] with(String[] shape, Path state) {
        String[] args = shape.clone();
        for (int i = 0; i < args.length; i++) {
            args[i] = args[i].replace("STATE", state.toString());
        }
        return args;
    }

    @Test
    void theDirectPathAnswersAsPicocliAgainstAStandInDaemon() throws Exception {
        List<ControlResponse> answers = List.of(
                ControlResponse.ok("standby [all] completed\nnode2 runs: web\n"),
                ControlResponse.refused("standby in progress (standby [all]); new request ignored"),
                new ControlResponse(ControlResponse.Kind.REFUSED, "the peer is not alive", "ignored body\n"),
                new ControlResponse(ControlResponse.Kind.ERROR, "no reply from node2 to the standby request",
                        "groups: web (starting)\n"),
                ControlResponse.error("timed out after 5 s"));
        Path state = Files.createDirectories(dir.resolve("state"));
        List<ControlRequest> asked = new ArrayList<>();
        AtomicReference<ControlResponse> answer = new AtomicReference<>();
        try (ControlServer s = new ControlServer(new StateDirectory(state).controlSocket(), r -> {
            synchronized (asked) {
                asked.add(r);
            }
            return answer.get();
        })) {
            s.start();
            for (ControlResponse a : answers) {
                answer.set(a);
                for (String[] shape : SHAPES) {
                    String[] args = with(shape, state);
                    String what = String.join(" ", args) + " answered " + a;
                    HbRun full = HbRun.hb(args);
                    List<ControlRequest> byPicocli;
                    synchronized (asked) {
                        byPicocli = List.copyOf(asked);
                        asked.clear();
                    }
                    HbRun quick = direct(args);
                    assertThat(quick).as(what).isEqualTo(full);
                    synchronized (asked) {
                        assertThat(asked).as(what).isEqualTo(byPicocli).hasSize(1);
                        asked.clear();
                    }
                    int expected = a.ok() ? ExitCodes.OK : a.refused() ? ExitCodes.REFUSED : ExitCodes.FAILURE;
                    assertThat(full.code()).as(what).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void withNoDaemonBothPathsSayNotRunning() throws Exception {
        Path nobody = Files.createDirectories(dir.resolve("nobody"));
        Files.writeString(new StateDirectory(nobody).controlSocket(), ""); // a socket's name, nobody listening
        for (Path state : List.of(dir.resolve("none"), nobody)) {
            for (String[] shape : SHAPES) {
                String[] args = with(shape, state);
                HbRun full = HbRun.hb(args);
                assertThat(direct(args)).as(String.join(" ", args)).isEqualTo(full);
                assertThat(full.code()).as(String.join(" ", args)).isEqualTo(ExitCodes.NOT_RUNNING);
                assertThat(full.err()).startsWith("hb: no daemon is running");
            }
        }
    }

    /** Help, bad values and any other option are picocli's: the direct path runs nothing for them. */
    @Test
    void anythingElseGoesToPicocli() {
        String s = dir.resolve("none").toString();
        String[][] others = {
            {}, {"status", "--watch"}, {"standby", "--help"}, {"standby", "-h"}, {"takeover", "--version"},
            {"failback", "-V"}, {"standby", "bogus"}, {"standby", "all", "local"}, {"standby", "all", "all"},
            {"failback", "local"}, {"failback", "failback"}, {"standby", "--timeout", "0"}, {"standby", "--timeout", "3601"},
            {"standby", "--timeout", "05"}, {"standby", "--timeout", "x"}, {"standby", "--timeout", "-5"},
            {"standby", "--timeout=+5"}, {"standby", "--timeout="}, {"standby", "--timeout"}, {"standby", "--timeout", "99999"},
            {"standby", "--timeout", "5", "--timeout", "5"}, {"standby", "--state-dir"}, {"standby", "--state-dir", ""},
            {"standby", "--state-dir="}, {"standby", "--state-dir", s, "--state-dir=" + s}, {"standby", "--state-dir", "-x"},
            {"standby", "--state-dir", "@opts"}, {"standby", "@opts"}, {"standby", "--state-dir=@opts"}, {"standby", "--"},
            {"standby", "--", "all"}, {"standby", "--bogus"}, {"takeover", "ALL"}, {"standby", "--state-dir", "a\0b"},
            {"hb_standby"}, {"standby-all"},
        };
        for (String[] args : others) {
            assertThat(DirectHandover.parse(args)).as(String.join(" ", args)).isNull();
            assertThat(direct(args)).as(String.join(" ", args)).isNull();
        }
    }

    /**
     * A move in a JVM of its own, as hb_standby runs it, against a socket served here by a thread that reads the
     * request line and answers as the daemon does: the answer is printed, and no picocli class nor lambda of ours
     * is loaded (the JVM's class-load log).
     */
    @Test
    void aDirectMoveLoadsNoPicocliClass() throws Exception {
        Path state = Files.createDirectories(dir.resolve("state"));
        Path socket = new StateDirectory(state).controlSocket();
        AtomicReference<String> asked = new AtomicReference<>();
        try (java.nio.channels.ServerSocketChannel server =
                     java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            server.bind(java.net.UnixDomainSocketAddress.of(socket));
            Thread daemon = new Thread(() -> {
                try (java.nio.channels.SocketChannel c = server.accept()) {
                    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
                            java.nio.channels.Channels.newInputStream(c), StandardCharsets.US_ASCII));
                    asked.set(in.readLine());
                    c.write(java.nio.ByteBuffer.wrap("REFUSED the peer is not alive\n".getBytes(StandardCharsets.US_ASCII)));
                } catch (java.io.IOException e) {
                    asked.set("server failed: " + e);
                }
            });
            daemon.start();
            Path log = dir.resolve("classes.log");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xlog:class+load=info:file=" + log, "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "takeover", "local", "--state-dir", state.toString(), "--timeout=7")
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            daemon.join(10_000);
            assertThat(p.exitValue()).as(output).isEqualTo(ExitCodes.REFUSED);
            assertThat(output).isEqualTo("hb: takeover local refused: the peer is not alive\n");
            assertThat(asked.get()).isEqualTo("takeover local 7");
            List<String> loaded = Files.readAllLines(log);
            assertThat(loaded).as("the JVM's class-load log").anyMatch(l -> l.contains(" org.jheartbeat.cli.DirectHandover "));
            assertThat(loaded).noneMatch(l -> l.contains(" picocli."))
                    .noneMatch(l -> l.contains(" org.jheartbeat.cli.CommandLines "))
                    .noneMatch(l -> l.contains(" org.jheartbeat.cli.command.HandoverCommand "))
                    .noneMatch(l -> l.contains("$$Lambda") && l.contains("org.jheartbeat.cli"));
        }
    }
}
