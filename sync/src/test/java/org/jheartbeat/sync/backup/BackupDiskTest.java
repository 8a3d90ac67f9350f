package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mount retry of {@link BackupDisk} on a recording runner and sleeper: no root, no real pauses. */
class BackupDiskTest {
    @TempDir
    Path tmp;

    private final List<Duration> pauses = new ArrayList<>();

    @Test
    void aFailingMountIsTriedFiveTimesOneSecondApartThenFails() {
        RecordingProcessRunner runner = new RecordingProcessRunner()
                .on(List.of("mount"), new ProcessResult(32, "", "mount: /x: wrong fs type\n", false));
        BackupDisk disk = new BackupDisk(runner, pauses::add);
        Path mp = tmp.resolve("mnt");

        assertThatThrownBy(() -> disk.mount(Path.of("/dev/null"), mp, true))
                .isInstanceOf(BackupException.class)
                .hasMessageStartingWith("cannot mount /dev/null on " + mp + ": mount: /x: wrong fs type");
        assertThat(runner.argvsStartingWith(List.of("mount"))).hasSize(5)
                .allSatisfy(argv -> assertThat(argv).containsExactly("mount", "-o", "ro,nodev,nosuid", "/dev/null",
                        mp.toString()));
        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofSeconds(1));
    }

    @Test
    void aMountThatSucceedsOnTheThirdAttemptPausesTwice() throws Exception {
        RecordingProcessRunner runner = new RecordingProcessRunner()
                .on(List.of("mount"), new ProcessResult(32, "", "mount: busy\n", false),
                        new ProcessResult(32, "", "mount: busy\n", false), ProcessResult.exited(0, ""));
        BackupDisk disk = new BackupDisk(runner, pauses::add);

        assertThat(disk.mount(Path.of("/dev/null"), tmp.resolve("mnt"), false)).isTrue();
        assertThat(runner.argvsStartingWith(List.of("mount"))).hasSize(3);
        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1));
    }

    /** A file system another mount namespace still holds cannot be checked: skipped with a note, not refused. */
    @Test
    void aDiskStillMountedInAnotherNamespaceIsNotCheckedButNotRefused() throws Exception {
        RecordingProcessRunner runner = new RecordingProcessRunner()
                .on(List.of("e2fsck"), new ProcessResult(8, "", "/dev/loop0 is in use.\ne2fsck: Cannot continue, aborting.\n\n",
                        false), new ProcessResult(8, "", "e2fsck: Bad magic number in super-block while trying to open"
                        + " /dev/loop0\n", false));
        BackupDisk disk = new BackupDisk(runner, pauses::add);
        assertThat(disk.fsck(Path.of("/dev/loop0"), "LABEL=D")).contains("e2fsck skipped: /dev/loop0 (LABEL=D) is in use,"
                + " probably still mounted in another mount namespace; not checked this time");
        assertThatThrownBy(() -> disk.fsck(Path.of("/dev/loop0"), "LABEL=D")).isInstanceOf(BackupException.class)
                .hasMessageContaining("found errors it cannot fix (exit 8): e2fsck: Bad magic number");
    }
}
