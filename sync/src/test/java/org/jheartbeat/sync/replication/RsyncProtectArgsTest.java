package org.jheartbeat.sync.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer job's path with blanks and {@code $(...)} replicated by real rsync through a remote shell
 * that does what ssh does (joins its arguments with blanks and hands them to the login shell,
 * {@code sh -c}), into a "peer" that is this machine in its own mount namespace with another
 * directory mounted over the source. {@code RSYNC_OLD_ARGS=1} makes rsync 3.2.4+ send arguments as
 * rsync 3.2.3 and older do (unescaped), as on Debian 11 or RHEL 8. Needs root and unshare.
 */
class RsyncProtectArgsTest {
    @TempDir
    Path dir;

    @Test
    void aPathWithBlanksAndCommandSubstitutionArrivesIntactAndRunsNothing() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")) && Files.isExecutable(Path.of("/usr/bin/rsync")),
                "needs unshare and rsync");
        Path marks = Files.createDirectories(dir.resolve("marks"));
        Path data = Files.createDirectories(dir.resolve("data"));
        Path peer = Files.createDirectories(dir.resolve("peer"));
        Path source = Files.createDirectories(data.resolve("a b $(touch${IFS}ran) 'q'"));
        Files.writeString(source.resolve("file one"), "payload\n");

        Path fakeSsh = dir.resolve("fake-ssh");
        // ssh HOST CMD...: the remote side runs "CMD..." joined by blanks through the login shell
        Files.writeString(fakeSsh, "#!/bin/sh\nshift\ncd '" + marks + "' || exit 1\n"
                + "exec unshare -m sh -c 'mount --bind \"$1\" \"$2\" && exec sh -c \"$3\"' fake-ssh '" + peer + "' '"
                + data + "' \"$*\"\n");
        Files.setPosixFilePermissions(fakeSsh, PosixFilePermissions.fromString("rwx------"));
        ReplicationJobSpec job = new ReplicationJobSpec("web", "g", List.of(source), Optional.empty(), "*/5 * * * *",
                false, List.of(), false, 0.5, 0, Duration.ofSeconds(30), Duration.ofMinutes(2), 0);

        List<String> argv = RsyncCommand.build("rsync", job, source, "peer", List.of(fakeSsh.toString()), false);
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().put("RSYNC_OLD_ARGS", "1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).as(out).isZero();
        assertThat(Files.readString(peer.resolve(data.relativize(source)).resolve("file one"))).isEqualTo("payload\n");
        try (var s = Files.list(marks)) {
            assertThat(s.toList()).as("files created by the peer's shell").isEmpty();
        }
    }
}
