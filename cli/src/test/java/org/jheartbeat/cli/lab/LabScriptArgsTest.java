package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lab's scripts refuse a command line they cannot run before they do anything: one line on stderr naming
 * what is wrong, exit 2. lab/lab.sh: a command that needs NODE given none ("usage: freeze NODE (NODE is
 * missing ...)", not bash's "$1: unbound variable" nor "unknown node ''"), an unknown command ("unknown command
 * 'stat'", not the whole usage). ./demo.sh and lab/demo.sh: an argument other than "townhall" (a typo must not
 * run the other demo). Nothing here reaches a namespace, a build or a package install: lab.sh runs with
 * LAB_ID=tf40x and its checks come before any action; ./demo.sh and lab/demo.sh run from a copy in which the
 * scripts they call (scripts/setup.sh; lab.sh, townhall/demo.sh) are stubs that only leave a mark, so a demo
 * whose check regressed is seen and starts nothing. About 30 short bash processes, well under a second each.
 */
class LabScriptArgsTest {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    private static final String LAB_ID = "tf40x";
    /** Hang bound per script run. */
    private static final long TIMEOUT_S = 10;

    @TempDir
    Path tmp;

    private record Run(int code, String stdout, String stderr) {
    }

    static Stream<String> nodeVerbs() {
        return Stream.of("freeze", "thaw", "upsstop", "upsstart", "poweroff", "poweron", "start", "stop", "status",
                "hb", "exec", "loss", "noloss", "linkdown", "holds", "uplinkcut", "srvmount", "syslogd");
    }

    @ParameterizedTest(name = "lab.sh {0}")
    @MethodSource("nodeVerbs")
    void aMissingNodeIsOneUsageLineAndExit2(String verb) throws Exception {
        Run r = run(List.of("bash", "lab/lab.sh", verb), ROOT, Map.of());
        assertThat(r.code()).as("exit status; stderr: %s", r.stderr()).isEqualTo(2);
        assertThat(r.stderr().lines().toList()).as("stderr").singleElement().asString()
                .startsWith("lab.sh[" + LAB_ID + "]: error: usage: " + verb + " NODE").contains("NODE is missing");
        assertNoNamespace();
    }

    @ParameterizedTest(name = "lab.sh {0}")
    @ValueSource(strings = {"stat", "freez", "--bogus"})
    void anUnknownCommandIsNamedInOneLineAndExit2(String verb) throws Exception {
        Run r = run(List.of("bash", "lab/lab.sh", verb, "node1"), ROOT, Map.of());
        assertThat(r.code()).as("exit status; stderr: %s", r.stderr()).isEqualTo(2);
        assertThat(r.stderr().lines().toList()).as("stderr").singleElement().asString()
                .startsWith("lab.sh[" + LAB_ID + "]: error: unknown command '" + verb + "'")
                .contains("lab/lab.sh help");
        assertThat(r.stdout()).isEmpty();
        assertNoNamespace();
    }

    @Test
    void helpStillPrintsTheUsage() throws Exception {
        Run r = run(List.of("bash", "lab/lab.sh", "help"), ROOT, Map.of());
        assertThat(r.code()).as(r.stderr()).isZero();
        assertThat(r.stdout()).startsWith("usage: [LAB_ID=id] lab.sh COMMAND").contains("freeze NODE");
    }

    @ParameterizedTest(name = "lab/demo.sh {0}")
    @ValueSource(strings = {"bogus", "townhal", "townhall x"})
    void labDemoRefusesAnUnknownArgumentBeforeTheLab(String args) throws Exception {
        assertRefusedInACopy("lab/demo.sh", List.of("lab/lab.sh", "lab/townhall/demo.sh"), args);
    }

    @ParameterizedTest(name = "./demo.sh {0}")
    @ValueSource(strings = {"bogus", "townhal", "townhall x"})
    void demoRefusesAnUnknownArgumentBeforeTheSetUp(String args) throws Exception {
        assertRefusedInACopy("demo.sh", List.of("scripts/setup.sh"), args);
    }

    /**
     * Runs {@code script} with {@code args} in a copy of the repository holding only it and, as {@link #stub}s,
     * the scripts it would run next; the argument must be refused before any of them runs.
     */
    private void assertRefusedInACopy(String script, List<String> next, String args) throws Exception {
        Path copy = tmp.resolve("repo");
        Files.createDirectories(copy.resolve(script).getParent());
        Files.copy(ROOT.resolve(script), copy.resolve(script));
        for (String n : next) {
            Files.createDirectories(copy.resolve(n).getParent());
            stub(copy.resolve(n));
        }
        assertRefused(run(command(script, args), copy, Map.of()), args);
    }

    /** bash SCRIPT ARGS (split on spaces). */
    private static List<String> command(String script, String args) {
        List<String> cmd = new ArrayList<>(List.of("bash", script));
        cmd.addAll(List.of(args.split(" ")));
        return cmd;
    }

    /**
     * A stand-in for a script the demo would run next (the set-up, the lab, the town hall demo): it only
     * leaves a mark (one file per stub in {@code tmp/ran}) and fails, so a demo that gets past its argument
     * check is seen and does nothing.
     */
    private void stub(Path script) throws IOException {
        Path ran = Files.createDirectories(tmp.resolve("ran"));
        Path mark = ran.resolve(script.getParent().getFileName() + "-" + script.getFileName());
        Files.writeString(script, "#!/bin/sh\ntouch '" + mark + "'\nexit 1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private void assertRefused(Run r, String args) throws IOException {
        Path ran = tmp.resolve("ran");
        try (Stream<Path> s = Files.list(ran)) {
            assertThat(s.map(p -> p.getFileName().toString())).as("scripts run for a refused argument").isEmpty();
        }
        assertThat(r.code()).as("exit status; stderr: %s", r.stderr()).isEqualTo(2);
        assertThat(r.stderr().lines().toList()).as("stderr").singleElement().asString()
                .isEqualTo("demo: unknown argument '" + args + "' (accepted: townhall, or nothing)");
        assertThat(r.stdout()).isEmpty();
    }

    private static void assertNoNamespace() throws IOException {
        Path netns = Path.of("/run/netns");
        if (Files.isDirectory(netns)) {
            try (Stream<Path> s = Files.list(netns)) {
                assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(LAB_ID + "-"));
            }
        }
    }

    private Run run(List<String> cmd, Path dir, Map<String, String> env) throws IOException, InterruptedException {
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("LAB_") || k.startsWith("HB_") || k.startsWith("DEMO_"));
        pb.environment().put("LAB_ID", LAB_ID);
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("%s did not end within %d s", cmd, TIMEOUT_S);
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
