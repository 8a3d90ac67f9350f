package org.jheartbeat.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM flags {@code packaging/src/bin/hb} starts each command with, read from a stand-in {@code java} on the
 * PATH that prints its arguments: the cluster daemon and the client commands keep the small-footprint defaults
 * (C1 only, unpooled buffers); the director ({@code hb lvs daemon}, which {@code ldirectord} runs) carries its
 * user-space data path through the JVM and gets C2 and Netty's pooled buffers.
 */
class LauncherFlagsTest {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();

    @TempDir
    Path dir;

    /** The java command line the launcher runs for ARGS (with HB_JAVA_OPTS when not null). */
    private String javaArgs(String javaOpts, String... args) throws IOException, InterruptedException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"$@\"\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path jar = Files.writeString(dir.resolve("hb.jar"), "not a jar", StandardCharsets.UTF_8);
        List<String> cmd = new ArrayList<>(List.of("sh", ROOT.resolve("packaging/src/bin/hb").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("HB_JAR", jar.toString());
        pb.environment().put("HB_CDS", "off");
        pb.environment().remove("HB_JAVA_OPTS");
        if (javaOpts != null) {
            pb.environment().put("HB_JAVA_OPTS", javaOpts);
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("launcher hung").isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void theDirectorRunsWithC2AndPooledBuffers() throws Exception {
        String director = javaArgs(null, "lvs", "daemon", "/etc/ha.d/ldirectord.cf");
        assertThat(director).doesNotContain("TieredStopAtLevel", "io.netty.allocator.type=unpooled",
                "CICompilerCount=1").contains("-XX:+ExitOnOutOfMemoryError", "lvs daemon /etc/ha.d/ldirectord.cf");
    }

    @Test
    void theClusterDaemonAndOtherCommandsKeepTheSmallFootprintFlags() throws Exception {
        assertThat(javaArgs(null, "daemon")).contains("-XX:TieredStopAtLevel=1", "-Dio.netty.allocator.type=unpooled");
        assertThat(javaArgs(null, "lvs", "status")).contains("-XX:TieredStopAtLevel=1");
    }

    @Test
    void hbJavaOptsStillOverridesTheDirectorsDefaults() throws Exception {
        assertThat(javaArgs("-Xmx99m", "lvs", "daemon", "x.cf")).contains("-Xmx99m -XX:+ExitOnOutOfMemoryError")
                .doesNotContain("-Xmx256m");
    }
}
