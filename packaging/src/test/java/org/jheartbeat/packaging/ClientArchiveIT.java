package org.jheartbeat.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client commands' class-data sharing archive, through the real launchers ({@code packaging/src/bin/hb},
 * {@code cl_status}) and the real {@code cds-archive create} the postinst runs, against a live throw-away
 * daemon (one node on loopback): with the archive, {@code hb status}, {@code cl_status} and the moves ({@code hb
 * standby}, {@code hb failback}, asked where no daemon runs) take their classes
 * from it (the JVM's class-load log says "shared objects file (top)", and no class comes from the jar: the
 * training run, {@code ClientTraining}, covered them all); their output, stderr and exit code are
 * those of the same command without it, and stay so whenever the launcher must not map it (removed,
 * truncated, the jar changed since) or the JVM refuses it (not an archive at all): the fallback is silent.
 * The class-load log comes from {@code JAVA_TOOL_OPTIONS}, which the launcher passes through untouched
 * (the JVM announces it on stderr: that line is left out of the comparison); it logs the collections too,
 * and none of these commands runs one (the launcher starts their heap at 12 MB, not the daemon's 4 MB).
 */
@Tag("root")
class ClientArchiveIT {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    private static final Path BIN = ROOT.resolve("packaging/src/bin");
    /** A hang bound, not a figure. */
    private static final long HANG_S = 120;

    record Run(int code, String out, String err, String classLog) { }

    @Test
    void statusAndClStatusMapTheArchiveAndAnswerTheSameWithoutIt(@TempDir Path tmp) throws Exception {
        assumeTrue(isRoot(), "the throw-away daemon runs as the package's does: root");
        Path builtJar = ROOT.resolve("cli/target/hb.jar");
        assumeTrue(Files.isRegularFile(builtJar), "needs cli/target/hb.jar (mvn package)");
        Path jar = tmp.resolve("hb.jar"); // a copy: the test changes its mtime
        Files.copy(builtJar, jar);
        Path cds = tmp.resolve("cds");
        Map<String, String> env = new HashMap<>(Map.of("HB_JAR", jar.toString(), "HB_CDS_DIR", cds.toString(),
                "HB", BIN.resolve("hb").toString()));

        Run create = run(List.of(BIN.resolve("cds-archive").toString(), "create"), env, tmp, null);
        assertThat(create.code()).as("cds-archive create\n%s%s", create.out(), create.err()).isZero();
        assertThat(create.out()).contains("cds-archive: " + cds.resolve("client.jsa") + " made");
        assertThat(run(List.of(BIN.resolve("cds-archive").toString(), "status"), env, tmp, null).out())
                .contains(cds.resolve("client.jsa") + " matches this jar and flags");

        Path state = tmp.resolve("state");
        Process daemon = startDaemon(tmp, env, state);
        try {
            List<List<String>> commands = List.of(
                    List.of(BIN.resolve("hb").toString(), "status", "--state-dir", state.toString()),
                    List.of(BIN.resolve("cl_status").toString(), "hbstatus"),
                    List.of(BIN.resolve("cl_status").toString(), "nodestatus", "jhb-ca-b"),
                    List.of(BIN.resolve("cl_status").toString(), "listnodes"),
                    // the moves, where no daemon runs (a hand-over would change the daemon's state between runs)
                    List.of(BIN.resolve("hb").toString(), "standby", "--state-dir", tmp.resolve("none").toString()),
                    List.of(BIN.resolve("hb").toString(), "failback", "--timeout=5", "--state-dir",
                            tmp.resolve("none").toString()));
            env.put("HB_STATE_DIR", state.toString());
            for (List<String> command : commands) {
                Run mapped = run(command, env, tmp, tmp.resolve("mapped.log"));
                assertThat(mapped.classLog()).as("%s with the archive", command)
                        .contains("org.jheartbeat.cli.Main source: shared objects file (top)")
                        // every class of ours and of the JDK's from the archives: the jar is never opened
                        .doesNotContain("source: file:").doesNotContain("source: jar:");
                Map<String, String> off = new HashMap<>(env);
                off.put("HB_CDS", "off");
                Run plain = run(command, off, tmp, tmp.resolve("plain.log"));
                assertThat(plain.classLog()).doesNotContain("(top)");
                // the launcher's client heap (12 MB to start) holds what these commands allocate: no collection
                assertThat(mapped.classLog() + plain.classLog()).as("%s: garbage collections", command)
                        .contains("Using Serial").doesNotContain("Pause Young").doesNotContain("Pause Full");
                assertSame(command + " with the archive", mapped, plain);
            }
            List<String> status = commands.get(0);
            Run plain = run(status, Map.of("HB_JAR", jar.toString(), "HB_CDS", "off"), tmp, null);

            // removed: the launcher does not ask for it
            Path archive = cds.resolve("client.jsa");
            Path aside = tmp.resolve("client.jsa.aside");
            Files.move(archive, aside);
            assertNotMapped("without the archive", run(status, env, tmp, tmp.resolve("none.log")), plain);
            // truncated (a crash of the JVM if it were mapped): its size no longer matches the key
            Files.write(archive, java.util.Arrays.copyOf(Files.readAllBytes(aside), 100_000));
            assertNotMapped("with a truncated archive", run(status, env, tmp, tmp.resolve("trunc.log")), plain);
            // not an archive at all, but its key made for it: the JVM refuses it, silently
            byte[] junk = new byte[200_000];
            ThreadLocalRandom.current().nextBytes(junk);
            Files.write(archive, junk);
            writeKey(env, tmp, cds);
            assertNotMapped("with a key but no archive the JVM can use", run(status, env, tmp, tmp.resolve("junk.log")),
                    plain);
            // the real one back, then the jar changes (an upgrade): the key no longer matches
            Files.copy(aside, archive, StandardCopyOption.REPLACE_EXISTING);
            writeKey(env, tmp, cds);
            assertThat(run(status, env, tmp, tmp.resolve("back.log")).classLog()).contains("(top)");
            Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
            assertNotMapped("after the jar changed", run(status, env, tmp, tmp.resolve("stale.log")), plain);
            assertThat(run(List.of(BIN.resolve("cds-archive").toString(), "status"), env, tmp, null).out())
                    .contains("no usable client archive in " + cds);
        } finally {
            daemon.destroy(); // SIGTERM: an orderly shutdown
            if (!daemon.waitFor(60, TimeUnit.SECONDS)) {
                daemon.destroyForcibly();
            }
        }
    }

    private static void assertNotMapped(String what, Run run, Run plain) {
        assertThat(run.classLog()).as("class-load log %s", what).doesNotContain("(top)");
        assertSame(what, run, plain);
    }

    private static void assertSame(String what, Run run, Run plain) {
        assertThat(run.code()).as("exit code %s\n%s", what, run.err()).isEqualTo(plain.code());
        assertThat(run.out()).as("output %s", what).isEqualTo(plain.out());
        assertThat(run.err()).as("stderr %s", what).isEqualTo(plain.err());
    }

    /** The key the launcher checks, as cds-archive writes it (HB_CDS=client-key). */
    private static void writeKey(Map<String, String> env, Path tmp, Path cds) throws Exception {
        Map<String, String> k = new HashMap<>(env);
        k.put("HB_CDS", "client-key");
        Run key = run(List.of(BIN.resolve("hb").toString()), k, tmp, null);
        assertThat(key.code()).isZero();
        Files.writeString(cds.resolve("client.jsa.key"), key.out(), StandardCharsets.UTF_8);
    }

    /** One node on loopback (as cds-archive's), peer never there; returns once it has taken over (initdead 4 s). */
    private static Process startDaemon(Path tmp, Map<String, String> env, Path state) throws Exception {
        Path haD = Files.createDirectories(tmp.resolve("ha.d"));
        int port = 20_000 + ThreadLocalRandom.current().nextInt(40_000);
        Path haLog = tmp.resolve("ha-log");
        Files.writeString(haD.resolve("ha.cf"), String.join("\n", "logfile " + haLog, "udpport " + port,
                "keepalive 200ms", "warntime 1", "deadtime 2", "initdead 4", "ucast lo 127.0.0.2",
                "auto_failback off", "node jhb-ca-a jhb-ca-b", ""));
        Files.writeString(haD.resolve("authkeys"), "auth 1\n1 sha1 client-archive-test\n");
        Files.setPosixFilePermissions(haD.resolve("authkeys"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.writeString(haD.resolve("haresources"), "");
        Map<String, String> denv = new HashMap<>(env);
        denv.put("HB_CDS", "off");
        ProcessBuilder pb = new ProcessBuilder(BIN.resolve("hb").toString(), "daemon", "--config-dir", haD.toString(),
                "--state-dir", state.toString(), "--node-name", "jhb-ca-a");
        pb.environment().putAll(denv);
        pb.redirectErrorStream(true).redirectOutput(tmp.resolve("daemon.out").toFile());
        Process p = pb.start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_S);
        while (!(Files.exists(haLog) && Files.readString(haLog).contains("mach_down takeover complete"))) {
            assertThat(p.isAlive()).as("daemon runs\n%s", Files.readString(tmp.resolve("daemon.out"))).isTrue();
            assertThat(System.nanoTime()).as("daemon takes over (hang bound)").isLessThan(end);
            Thread.sleep(100);
        }
        return p;
    }

    /** Runs COMMAND; with classLog, the JVM writes its class-load log there. */
    private static Run run(List<String> command, Map<String, String> env, Path tmp, Path classLog) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile());
        pb.environment().remove("HB_JAVA_OPTS");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().putAll(env);
        if (classLog != null) {
            Files.deleteIfExists(classLog);
            // the collections too: a client command whose heap is too small for it pays ~1.2 ms for each
            pb.environment().put("JAVA_TOOL_OPTIONS", "-Xlog:class+load,gc:file=" + classLog);
        }
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(HANG_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not end within " + HANG_S + " s (hang bound)");
        }
        String stderr = Files.readString(err).lines().filter(l -> !l.startsWith("Picked up JAVA_TOOL_OPTIONS"))
                .map(l -> l + "\n").reduce("", String::concat);
        return new Run(p.exitValue(), Files.readString(out), stderr,
                classLog != null && Files.exists(classLog) ? Files.readString(classLog) : "");
    }

    private static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
