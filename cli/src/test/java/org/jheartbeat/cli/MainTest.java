package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
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
        assertThat(Main.isDaemonRun(new String[] {"daemon", "--config-dir", "/etc/ha.d"})).isTrue();
        assertThat(Main.isDaemonRun(new String[] {"daemon"})).isTrue();
        assertThat(Main.isDaemonRun(new String[] {})).isFalse();
        assertThat(Main.isDaemonRun(new String[] {"status", "daemon"})).isFalse();
        assertThat(Main.isDaemonRun(new String[] {"daemon", "--help"})).isFalse();
        assertThat(Main.isDaemonRun(new String[] {"daemon", "-h"})).isFalse();
        assertThat(Main.isDaemonRun(new String[] {"daemon", "-V"})).isFalse();
        assertThat(Main.isDaemonRun(new String[] {"daemon", "--version"})).isFalse();
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
            HbRun full = run(Main::newCommandLine, args);
            HbRun quick = run(Main::newDaemonCommandLine, args);
            assertThat(quick).as(String.join(" ", args)).isEqualTo(full);
            assertThat(full.code()).as(String.join(" ", args)).isNotZero();
        }
    }

    @Test
    void statusAndClStatusTakeTheShortPathUnlessHelpOrVersionIsAsked() {
        assertThat(Main.isShortPath(new String[] {"status", "--state-dir", "/var/lib/jheartbeat"})).isTrue();
        assertThat(Main.isShortPath(new String[] {"cl-status", "--state-dir", "/s", "--", "hbstatus"})).isTrue();
        assertThat(Main.isShortPath(new String[] {"cl-status", "--", "-h"})).as("cl_status's own -h").isTrue();
        assertThat(Main.isShortPath(new String[] {"status", "--help"})).isFalse();
        assertThat(Main.isShortPath(new String[] {"cl-status", "-V", "--", "hbstatus"})).isFalse();
        assertThat(Main.isShortPath(new String[] {"standby"})).isFalse();
        assertThat(Main.isShortPath(new String[] {})).isFalse();
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
            HbRun full = run(Main::newCommandLine, args);
            HbRun quick = run(() -> Main.newShortCommandLine(args[0]), args);
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
            HbRun full = run(Main::newCommandLine, args);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            Integer code = Main.direct(args, new PrintWriter(out, true), new PrintWriter(err, true));
            assertThat(new HbRun(code, out.toString(), err.toString())).as(String.join(" ", args)).isEqualTo(full);
            assertThat(full.code()).as(String.join(" ", args)).isNotZero();
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
