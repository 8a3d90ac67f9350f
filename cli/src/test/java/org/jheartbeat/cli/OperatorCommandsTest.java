package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.HbRun.hb;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.takeover.ResourceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator commands against a stand-in daemon (a {@link ControlServer} with a scripted handler):
 * exit codes tell done, refused and failed apart; argument errors are usage errors; with no daemon,
 * {@code --json} still prints an object; a second daemon stops at "already running" first.
 */
class OperatorCommandsTest {
    @TempDir
    Path dir;

    final List<ControlRequest> asked = new ArrayList<>();

    HbRun against(Function<ControlRequest, ControlResponse> daemon, String... args) throws Exception {
        return StandInDaemon.against(dir, asked, daemon, args);
    }

    @Test
    void handoverExitCodesTellDoneRefusedAndFailedApart() throws Exception {
        HbRun done = against(r -> ControlResponse.ok("standby [all] completed\n"), "standby", "all");
        assertThat(done.code()).as(done.err()).isZero();
        assertThat(done.out()).isEqualTo("standby [all] completed\n");
        assertThat(asked).containsExactly(new ControlRequest.Handover(ControlRequest.HandoverKind.STANDBY, ResourceSet.ALL, 60));

        HbRun refused = against(r -> ControlResponse.refused("standby in progress (standby [all]); new request ignored"),
                "takeover", "local", "--timeout", "5");
        assertThat(refused.code()).isEqualTo(ExitCodes.REFUSED).isEqualTo(75);
        assertThat(refused.err()).isEqualTo("hb: takeover local refused: standby in progress (standby [all]); new request"
                + " ignored\n");

        HbRun failed = against(r -> ControlResponse.error("no reply from node2 to the standby request"), "failback");
        assertThat(failed.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(failed.err()).isEqualTo("hb: standby failback not done: no reply from node2 to the standby request\n");
        assertThat(asked).last().isEqualTo(new ControlRequest.Handover(ControlRequest.HandoverKind.STANDBY,
                ResourceSet.FOREIGN, 60));

        HbRun malformed = against(r -> ControlResponse.error("bad request: unknown request 'x'"), "status");
        assertThat(malformed.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(malformed.err().lines()).hasSize(1);
    }

    /** A group the daemon does not have is a usage error (64) with the daemon's list of groups, not 75. */
    @Test
    void cleanupOfAGroupThatDoesNotExistIsAUsageError() throws Exception {
        String answer = ControlResponse.NO_SUCH_GROUP + "NOSUCH in haresources; its groups"
                + " are 1 web, 2 mail: name one by its key (the first resource of its line) or its number";
        HbRun r = against(q -> ControlResponse.error(answer), "cleanup", "NOSUCH");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("hb: cleanup: " + answer + "\n");
        HbRun older = against(q -> ControlResponse.refused("no resource group NOSUCH in haresources (name it by its"
                + " key, the first resource of its line, or its number; see hb resources list)"), "cleanup", "NOSUCH");
        assertThat(older.code()).as("an older daemon's refusal").isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void failbackTakesNoSetArgument() throws Exception {
        HbRun r = against(x -> ControlResponse.ok(""), "failback", "local");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("Unmatched argument").contains("'local'").contains("hb failback --help");
        assertThat(asked).isEmpty();
        assertThat(hb("failback", "--help").out()).contains("Takes no set argument").contains("75");
    }

    @Test
    void standbyHelpListsTheRefusalExitCode() {
        for (String cmd : List.of("standby", "takeover")) {
            HbRun r = hb(cmd, "--help");
            assertThat(r.code()).isZero();
            assertThat(r.out()).contains("75").contains("refused at once");
        }
        assertThat(hb("standby", "nothing", "--state-dir=" + dir).err())
                .isEqualTo("hb: standby: unknown set [nothing]; use all, local, foreign or failback\n");
    }

    @Test
    void clStatusHelpPrintsItsUsage() {
        HbRun r = hb("cl-status", "--help");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Usage: hb cl-status").contains("hbstatus").contains("11").contains("--");
        assertThat(hb("cl-status", "-h").out()).startsWith("Usage: hb cl-status");
    }

    @Test
    void statusJsonWithNoDaemonIsStillAnObject() {
        HbRun r = hb("status", "--json", "--state-dir=" + dir.resolve("nothing"));
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_RUNNING);
        assertThat(r.out()).isEqualTo("{\"schema\":\"jheartbeat.status/1\",\"running\":false,\"error\":\"no daemon is"
                + " running: control socket " + dir.resolve("nothing/control.sock") + " does not exist\"}\n");
        assertThat(r.err()).startsWith("hb: no daemon is running");
        HbRun text = hb("status", "--state-dir=" + dir.resolve("nothing"));
        assertThat(text.code()).isEqualTo(ExitCodes.NOT_RUNNING);
        assertThat(text.out()).isEmpty();
    }

    @Test
    void aSecondDaemonSaysAlreadyRunningBeforeLookingAtAnythingElse() throws Exception {
        // the config dir does not even exist: the running daemon is reported first
        HbRun r = against(x -> ControlResponse.ok("status\n"), "daemon", "--config-dir=" + dir.resolve("no-config"),
                "--node-name=node1");
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).startsWith("hb: a daemon is already running on state directory " + dir.resolve("state"))
                .doesNotContain("no-config").doesNotContain("STONITH");
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    void wrappersRefuseBadArgumentsAsHeartbeatsScripts() throws Exception {
        Path bin = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize()
                .resolve("packaging/src/bin");
        for (String script : List.of("hb_standby", "hb_takeover")) {
            Path s = bin.resolve(script);
            assertThat(sh(s, "a", "b")).isEqualTo(new Sh(1, s + ": too many arguments\nusage:\n",
                    s + " [all|foreign|local|failback]\n"));
            assertThat(sh(s, "bogus")).isEqualTo(new Sh(1, s + ": wrong resources(bogus).\nusage:\n",
                    s + " [all|foreign|local|failback]\n"));
            assertThat(sh(s, "--help")).isEqualTo(new Sh(1, "usage:\n", s + " [all|foreign|local|failback]\n"));
        }
    }

    record Sh(int code, String out, String err) { }

    static Sh sh(Path script, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("sh", script.toString()));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).start();
        p.getOutputStream().close();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Sh(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
