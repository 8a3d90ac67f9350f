package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lab as an admin's tool: {@code lab.sh hb NODE ARGS...} runs hb inside the node with that node's
 * configuration and state directories and name, its exit code passed on; {@code lab.sh} with no
 * command prints its usage on stderr and exits non-zero (2), an unknown command is one line naming it (2).
 */
@Tag("root")
class LabHbCommandIT {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();

    /** lab.sh ARGS with stdout and stderr kept apart: {exit code, stdout, stderr}. */
    private static String[] labSh(String... args) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of(ROOT.resolve("lab/lab.sh").toString()));
        argv.addAll(List.of(args));
        Path out = Files.createTempFile("labsh", ".out");
        Path err = Files.createTempFile("labsh", ".err");
        try {
            Process p = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("lab.sh %s ended", argv).isTrue();
            return new String[] {String.valueOf(p.exitValue()), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8)};
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void withoutACommandLabShPrintsItsUsageOnStderrAndFails() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        String[] r = labSh();
        assertThat(r[0]).as("exit code of lab.sh").isEqualTo("2");
        assertThat(r[1]).as("stdout").isEmpty();
        assertThat(r[2]).startsWith("usage: ").contains("hb NODE [ARGS..]");
        // an unknown command is one line naming it (LabScriptArgsTest has more)
        String[] unknown = labSh("nosuchcommand");
        assertThat(unknown[0]).as("exit code of lab.sh nosuchcommand").isEqualTo("2");
        assertThat(unknown[2]).contains("unknown command 'nosuchcommand'").hasLineCount(1);
    }

    @Test
    void hbRunsOnTheNodeWithItsDirectoriesAndPassesItsExitCodeOn() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3"))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            lab.waitUntil(() -> "node1".equals(lab.http()), Figures.HANG_MS, "the VIP served by node1");

            Lab.Result status = lab.lab("hb", "node2", "status");
            assertThat(status.code()).as(status.output()).isZero();
            assertThat(status.output()).contains("Node node2 (").containsPattern("node2 +active +\\(this node\\)");

            // config check takes --config-dir: node1's own ha.d, not /etc/ha.d
            Lab.Result check = lab.lab("hb", "node1", "config", "check");
            assertThat(check.code()).as(check.output()).isZero();
            assertThat(check.output()).contains(lab.configDir("node1") + ": configuration OK");

            // the VIP served is not node1's start returned: a standby asked before that is refused (in flux)
            OperatorCommandsIT.awaitSettled(lab, "node1", "node2");
            Lab.Result standby = lab.lab("hb", "node1", "standby");
            assertThat(standby.code()).as(standby.output()).isZero();
            lab.waitUntil(() -> "node2".equals(lab.http()), Figures.HANG_MS, "the VIP served by node2 after node1's standby");

            Lab.Result events = lab.lab("hb", "node2", "events", "--since", "5min");
            assertThat(events.code()).as(events.output()).isZero();
            assertThat(events.output()).contains("node2 group-started 198.18.0.100/24/eth0");

            // hb's own exit codes come through: a usage error (64), no daemon on a directory the caller gave (3)
            assertThat(lab.lab("hb", "node1", "nosuchcommand").code()).isEqualTo(64);
            Lab.Result other = lab.lab("hb", "node1", "status", "--state-dir", "/nonexistent-lab-state");
            assertThat(other.code()).as(other.output()).isEqualTo(3);
            assertThat(other.output()).contains("/nonexistent-lab-state/control.sock");

            // a powered-off node: its state dir is still there, its daemon is not
            assertThat(lab.lab("poweroff", "node1").code()).isZero();
            Lab.Result off = lab.lab("hb", "node1", "status");
            assertThat(off.code()).as(off.output()).isEqualTo(3);
            assertThat(off.output()).contains(lab.runDir().resolve("node1/state/control.sock").toString());
        }
    }
}
