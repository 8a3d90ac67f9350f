package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code bench/vs-pacemaker.sh} (jheartbeat beside Corosync + Pacemaker, docs/benchmarks.md) cleans up after
 * itself: its figures take a quarter of an hour and are never asserted, but a run that fails half-way must
 * leave no lab behind (no namespace, no process of the stacks), and a bad argument is one message and exit 2
 * before anything is made. The failure is forced right after the lab is up: {@code HB_CMD=/bin/false}
 * makes the script's first jheartbeat command, {@code hb export pacemaker}, fail. About 5 s (one lab up and
 * down).
 */
@Tag("root")
class VsPacemakerBenchIT {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    private static final Path SCRIPT = ROOT.resolve("bench/vs-pacemaker.sh");

    private record Run(int code, String output) {
    }

    @Test
    void aBadArgumentIsOneMessageAndExit2() throws Exception {
        Run r = run(Map.of(), "--rounds", "0");
        assertThat(r.code()).as(r.output()).isEqualTo(2);
        assertThat(r.output().strip()).startsWith("vs-pacemaker.sh: --rounds must be a positive integer, not '0'");
        Run u = run(Map.of(), "--fast");
        assertThat(u.code()).as(u.output()).isEqualTo(2);
        assertThat(u.output()).contains("unknown option '--fast'");
    }

    @Test
    void aRunThatFailsAfterTheLabIsUpTakesTheLabDown() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/pacemakerd")) && Files.isExecutable(Path.of("/usr/sbin/corosync")),
                "corosync and pacemaker are not installed (scripts/setup.sh: pacemaker-cli-utils)");
        assumeTrue(Files.isRegularFile(ROOT.resolve("cli/target/hb.jar")), "cli/target/hb.jar not built");
        String id = "vpit" + ThreadLocalRandom.current().nextInt(1000, 10000);
        try {
            Run r = run(Map.of("LAB_ID", id, "HB_CMD", "/bin/false"));
            assertThat(r.code()).as(r.output()).isEqualTo(1);
            assertThat(r.output()).contains("vs-pacemaker.sh: hb export pacemaker failed");
            for (String ns : List.of("-n1", "-n2", "-cl", "-sw")) {
                assertThat(Path.of("/run/netns", id + ns)).as("namespace %s%s left behind", id, ns).doesNotExist();
            }
        } finally {
            ProcessBuilder clean = new ProcessBuilder(ROOT.resolve("lab/lab.sh").toString(), "clean")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).directory(ROOT.toFile());
            clean.environment().put("LAB_ID", id);
            clean.start().waitFor(60, TimeUnit.SECONDS);
        }
    }

    private static Run run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(SCRIPT.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the script ends (hang bound)").isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
