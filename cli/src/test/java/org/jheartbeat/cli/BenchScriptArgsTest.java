package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bench scripts (bench/*.sh, run by hand by an admin, figures in docs/benchmarks.md) refuse a bad command
 * line before they do anything: a number that is not one, or an option given last without its value, is one
 * line on stderr naming the option and exit 2 (bench/args.sh), never bash's "$2: unbound variable" nor a lab
 * started with it. Each script runs under {@code bash} with {@code BENCH_ARGS_ONLY=1}, which makes it exit 0
 * right after its arguments are checked, so nothing is built, installed or started even if a check regresses;
 * a script that never reaches that exit is not run at all (the test fails first). About 70 short bash
 * processes, a second or two.
 */
class BenchScriptArgsTest {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    /** The settings the scripts read from the environment: a caller's own must not change the outcome. */
    private static final List<String> SCRIPT_ENV = List.of("FILES", "ROUNDS", "RUNS", "IDLE_S", "REAL", "CDS",
            "FLAP_SECONDS", "HB_JAR", "HB_CMD", "HB_CDS", "LAB_ID", "PEER", "SSH", "BENCH_DIR", "NO_BUILD", "KEEP",
            "LAB_FENCE_ACTION", "LAB_STONITH");
    /** Hang bound per script run (each takes some ms). */
    private static final long TIMEOUT_S = 10;

    @TempDir
    Path tmp;

    private record Run(int code, String stdout, String stderr) {
    }

    static Stream<Arguments> badCommandLines() {
        List<Arguments> c = new ArrayList<>();
        for (String o : List.of("--conns", "--concurrency", "--latency", "--bulk", "--rounds", "--warmup")) {
            c.add(bad("director.sh", Map.of(), o, o)); // the value missing
        }
        c.add(bad("director.sh", Map.of(), "--rounds", "--rounds", "-1"));
        c.add(bad("director.sh", Map.of(), "--conns", "--conns", "abc"));
        c.add(bad("director.sh", Map.of(), "--concurrency", "--concurrency", "0"));
        c.add(bad("director.sh", Map.of(), "--latency", "--latency", "1.5"));
        c.add(bad("director.sh", Map.of(), "--bulk", "--bulk", ""));
        c.add(bad("director.sh", Map.of(), "--warmup", "--warmup", "08"));
        c.add(bad("director.sh", Map.of(), "--concurrency", "--concurrency", "64", "--warmup", "10"));
        c.add(bad("director.sh", Map.of(), "--fast", "--fast"));

        c.add(bad("replication-bench.sh", Map.of(), "--minutes", "--minutes", "abc"));
        c.add(bad("replication-bench.sh", Map.of(), "PEER", "root@198.18.1.2", "root@198.18.1.3"));
        c.add(bad("replication-bench.sh", Map.of("FILES", "abc"), "FILES"));
        c.add(bad("replication-bench.sh", Map.of("ROUNDS", "0"), "ROUNDS"));

        c.add(bad("cli-latency.sh", Map.of(), "--runs", "--runs"));
        c.add(bad("cli-latency.sh", Map.of(), "--runs", "--runs", "0"));

        for (String o : List.of("--minutes", "--flap-every", "--move-every")) {
            c.add(bad("soak.sh", Map.of(), o, o));
        }
        c.add(bad("soak.sh", Map.of(), "--minutes", "--minutes", "0"));
        c.add(bad("soak.sh", Map.of(), "--flap-every", "--flap-every", "10"));
        c.add(bad("soak.sh", Map.of(), "--flap-every", "--flap-every", "08"));
        c.add(bad("soak.sh", Map.of(), "--move-every", "--move-every", "60"));

        for (String o : List.of("--rounds", "--warmup", "--cpu-window", "--keepalive", "--deadtime", "--watch")) {
            c.add(bad("vs-pacemaker.sh", Map.of(), o, o));
        }
        c.add(bad("vs-pacemaker.sh", Map.of(), "--rounds", "--rounds", "0"));
        c.add(bad("vs-pacemaker.sh", Map.of(), "--deadtime", "--deadtime", "3s"));
        c.add(bad("vs-pacemaker.sh", Map.of(), "--keepalive", "--keepalive", "abc"));

        c.add(bad("idle-footprint.sh", Map.of("RUNS", "0"), "RUNS"));
        c.add(bad("idle-footprint.sh", Map.of("IDLE_S", "x"), "IDLE_S"));
        c.add(bad("idle-footprint.sh", Map.of(), "--runs", "--runs", "3"));

        for (String o : List.of("--runs", "--settings", "--systems")) {
            c.add(bad("failover.sh", Map.of(), o, o));
        }
        c.add(bad("failover.sh", Map.of(), "--runs", "--runs", "0"));
        c.add(bad("failover.sh", Map.of(), "--settings", "--settings", "1:5s"));

        for (String o : List.of("--minutes", "--systems", "--variants", "--cpu", "--vm", "--vm-bytes", "--io")) {
            c.add(bad("stress-deaths.sh", Map.of(), o, o));
        }
        c.add(bad("stress-deaths.sh", Map.of(), "--minutes", "--minutes", "0"));
        c.add(bad("stress-deaths.sh", Map.of(), "--cpu", "--cpu", "0"));
        c.add(bad("stress-deaths.sh", Map.of(), "--io", "--io", "x"));
        c.add(bad("stress-deaths.sh", Map.of(), "--vm-bytes", "--vm-bytes", "1x"));

        c.add(bad("fault-matrix.sh", Map.of("FLAP_SECONDS", "0"), "FLAP_SECONDS"));
        c.add(bad("fault-matrix.sh", Map.of(), "-x", "-x"));
        return c.stream();
    }

    static Stream<Arguments> goodCommandLines() {
        return Stream.of(
                good("director.sh", Map.of()),
                good("director.sh", Map.of(), "--conns", "10000", "--concurrency", "32", "--latency", "2000", "--bulk",
                        "536870912", "--rounds", "5", "--warmup", "2000"),
                good("replication-bench.sh", Map.of()),
                good("replication-bench.sh", Map.of("FILES", "200", "ROUNDS", "1"), "root@198.18.1.2"),
                good("cli-latency.sh", Map.of(), "--runs", "10"),
                good("soak.sh", Map.of(), "--minutes", "1440", "--flap-every", "180", "--move-every", "0", "--no-load"),
                good("vs-pacemaker.sh", Map.of(), "--rounds", "1", "--keepalive", "100ms", "--deadtime", "500ms",
                        "--warmup", "5", "--cpu-window", "5", "--watch", "no"),
                good("idle-footprint.sh", Map.of("IDLE_S", "0", "RUNS", "1", "REAL", "0")),
                good("failover.sh", Map.of(), "--runs", "1", "--settings", "1:5 100ms:500ms", "--systems", "jheartbeat",
                        "--stonith"),
                good("stress-deaths.sh", Map.of(), "--minutes", "0.5", "--systems", "jheartbeat", "--variants",
                        "plain unit", "--cpu", "1", "--vm", "1", "--vm-bytes", "64m", "--io", "1", "--no-stress"),
                good("fault-matrix.sh", Map.of("FLAP_SECONDS", "20"), "STONITH"));
    }

    @ParameterizedTest(name = "{0} {2} {1}")
    @MethodSource("badCommandLines")
    void aBadCommandLineIsOneLineNamingItAndExit2(String script, Map<String, String> env, List<String> args,
            String names) throws Exception {
        Run r = run(script, env, args);
        List<String> lines = r.stderr().lines().toList();
        assertThat(r.code()).as("exit status; stderr: %s", r.stderr()).isEqualTo(2);
        assertThat(lines).as("stderr").hasSize(1);
        assertThat(lines.get(0)).startsWith(script + ": ").contains(names);
    }

    @ParameterizedTest(name = "{0} {2} {1}")
    @MethodSource("goodCommandLines")
    void goodArgumentsAreAcceptedSilently(String script, Map<String, String> env, List<String> args)
            throws Exception {
        Run r = run(script, env, args);
        assertThat(r.stderr()).as("stderr").isEmpty();
        assertThat(r.code()).isZero();
        assertThat(r.stdout()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("helpOptions")
    void replicationBenchPrintsItsHeaderForHelp(String option) throws Exception {
        Run r = run("replication-bench.sh", Map.of(), List.of(option));
        assertThat(r.code()).as(r.stderr()).isZero();
        assertThat(r.stderr()).isEmpty();
        assertThat(r.stdout()).startsWith("Benchmark: jheartbeat's ReplicationRunner")
                .contains("bench/replication-bench.sh [PEER]").doesNotContain("set -euo pipefail");
    }

    @org.junit.jupiter.api.Test
    void idleFootprintsHeaderNamesTheGoalsInForceNotTheWithdrawnOne() throws Exception {
        String header = Files.readString(ROOT.resolve("bench/idle-footprint.sh")).lines()
                .takeWhile(l -> l.startsWith("#")).reduce("", (a, l) -> a + l.substring(1) + "\n");
        assertThat(header.replaceAll("\\s+", " ")).contains("at most half that of Corosync + Pacemaker")
                .contains("memory flat").doesNotContain("at or under 48 MB");
    }

    static Stream<String> helpOptions() {
        return Stream.of("-h", "--help");
    }

    private static Arguments bad(String script, Map<String, String> env, String names, String... args) {
        return Arguments.of(script, env, List.of(args), names);
    }

    private static Arguments good(String script, Map<String, String> env, String... args) {
        return Arguments.of(script, env, List.of(args));
    }

    private Run run(String script, Map<String, String> env, List<String> args)
            throws IOException, InterruptedException {
        Path file = ROOT.resolve("bench").resolve(script);
        // without its early exit a script would go on to build, start labs or install packages: not here
        assertThat(Files.readString(file)).as("bench/%s must call args_done (bench/args.sh) after its checks;"
                + " without it BENCH_ARGS_ONLY=1 would not stop it, so it is not run", script)
                .containsPattern("(?m)^args_done$");
        List<String> cmd = new ArrayList<>(List.of("bash", "bench/" + script));
        cmd.addAll(args);
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        SCRIPT_ENV.forEach(pb.environment()::remove);
        pb.environment().putAll(env);
        pb.environment().put("BENCH_ARGS_ONLY", "1");
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("bash bench/%s %s did not end within %d s", script, args, TIMEOUT_S);
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
