package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.sync.config.BackupProfile;
import org.jheartbeat.sync.config.BackupSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rsync options of both profiles, and the reading of real rsync itemize output for {@code hb backup verify}. */
class BackupRsyncTest {
    @TempDir
    Path dir;

    private static BackupSpec spec(BackupProfile profile, Path mp, List<String> opts, Path... paths) {
        return new BackupSpec("b", Optional.of("L"), Optional.empty(), Optional.empty(), mp, List.of(paths), 3,
                Duration.ofSeconds(10), true, opts, 0, Optional.empty(), profile);
    }

    @Test
    void aDataBackupKeepsItsOptions() {
        assertThat(BackupRsync.options(spec(BackupProfile.DATA, Path.of("/mnt/b"), List.of("--exclude=*.tmp"),
                Path.of("/srv/web")), List.of(Path.of("/swapfile"))))
                .containsExactly("-aHR", "--numeric-ids", "--exclude=*.tmp");
    }

    @Test
    void aSystemBackupStaysOnOneFileSystemAndExcludesPseudoFileSystemsTheDiskAndSwap() {
        List<String> o = BackupRsync.options(spec(BackupProfile.SYSTEM, Path.of("/mnt/jhb-backup"), List.of("--bwlimit=9m"),
                Path.of("/"), Path.of("/boot")), List.of(Path.of("/swapfile"), Path.of("/var/swap [1]")));
        assertThat(o).containsExactly("-aHR", "--numeric-ids", "-AX", "--one-file-system",
                "--exclude=/proc/*", "--exclude=/sys/*", "--exclude=/dev/*", "--exclude=/run/*", "--exclude=/tmp/*",
                "--exclude=/var/tmp/*", "--exclude=/var/cache/apt/archives/*.deb",
                "--exclude=/var/cache/apt/archives/partial/*", "--exclude=/lost+found",
                "--exclude=/boot/proc/*", "--exclude=/boot/sys/*", "--exclude=/boot/dev/*", "--exclude=/boot/run/*",
                "--exclude=/boot/tmp/*", "--exclude=/boot/var/tmp/*", "--exclude=/boot/var/cache/apt/archives/*.deb",
                "--exclude=/boot/var/cache/apt/archives/partial/*", "--exclude=/boot/lost+found",
                "--exclude=/mnt/jhb-backup/*", "--exclude=/swapfile", "--exclude=/var/swap \\[1]", "--bwlimit=9m");
    }

    @Test
    void swapFilesAreReadFromProcSwaps() {
        String swaps = """
                Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority
                /dev/sda3                               partition\t8388604\t\t0\t\t-2
                /swapfile                               file\t\t1048572\t\t0\t\t-3
                /var/my\\040swap                         file\t\t1048572\t\t0\t\t-4
                """;
        assertThat(BackupRsync.swapFiles(swaps)).containsExactly(Path.of("/swapfile"), Path.of("/var/my swap"));
        assertThat(BackupRsync.swapFiles("Filename Type Size Used Priority\n")).isEmpty();
    }

    /** Real rsync, real files: what verify reports for each kind of change, and nothing for a copy that matches. */
    @Test
    void realRsyncDifferencesAreNamedByKind() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/data"));
        Files.writeString(src.resolve("same"), "same");
        Files.writeString(src.resolve("changed"), "before");
        Files.writeString(src.resolve("gone"), "x");
        Files.writeString(src.resolve("mode"), "m");
        Files.createSymbolicLink(src.resolve("link"), Path.of("same"));
        Path snap = Files.createDirectories(dir.resolve("snap"));
        BackupSpec spec = spec(BackupProfile.DATA, dir.resolve("mnt"), List.of(), src);
        List<String> copy = new ArrayList<>(List.of("rsync"));
        copy.addAll(BackupRsync.options(spec, List.of()));
        copy.add(src.toString());
        copy.add(snap + "/");
        run(copy);
        assertThat(BackupRsync.differences(compare(spec, snap))).isEmpty();

        Files.writeString(src.resolve("changed"), "after, longer");
        Files.delete(src.resolve("gone"));
        Files.writeString(src.resolve("new"), "n");
        Files.setPosixFilePermissions(src.resolve("mode"), PosixFilePermissions.fromString("rwx------"));
        String rel = src.toString().substring(1);
        assertThat(BackupRsync.differences(compare(spec, snap))).map(Object::toString).containsExactlyInAnyOrder(
                "changed: /" + rel + "/changed", "only in snapshot: /" + rel + "/gone",
                "missing from snapshot: /" + rel + "/new", "attributes (p): /" + rel + "/mode");
    }

    private static String compare(BackupSpec spec, Path snap) throws Exception {
        List<String> argv = new ArrayList<>(List.of("rsync", "--dry-run", "--checksum", "--itemize-changes", "--delete"));
        argv.addAll(BackupRsync.options(spec, List.of()));
        spec.paths().forEach(p -> argv.add(p.toString()));
        argv.add(snap + "/");
        return run(argv);
    }

    private static String run(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", argv)).isZero();
        return out;
    }
}
