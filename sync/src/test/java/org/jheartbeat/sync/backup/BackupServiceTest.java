package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.sync.TestClock;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BackupService#probe} and the state it keeps apart from it, with blkid answered by a fake
 * runner: what the disk is now never comes from the state file, and a disk poll never replaces
 * the last run's message.
 */
class BackupServiceTest {
    @TempDir
    Path dir;

    /** Answers blkid as if {@code devices} carried the label and {@code tags} were at each device. */
    private static final class FakeBlkid implements ProcessRunner {
        List<String> devices = List.of();
        Map<String, String> tags = Map.of();
        final List<List<String>> calls = new ArrayList<>();

        @Override
        public ProcessResult run(ProcessSpec spec) {
            calls.add(spec.argv());
            List<String> a = spec.argv();
            if (a.contains("-t")) {
                return devices.isEmpty() ? new ProcessResult(2, "", "", false)
                        : new ProcessResult(0, String.join("\n", devices) + "\n", "", false);
            }
            String dev = a.get(a.size() - 1);
            return tags.containsKey(dev) ? new ProcessResult(0, tags.get(dev), "", false)
                    : new ProcessResult(2, "", "", false);
        }
    }

    private final FakeBlkid blkid = new FakeBlkid();

    private BackupService service(Optional<Path> device) {
        BackupSpec spec = new BackupSpec("drawer", Optional.of("MYBK"), Optional.empty(), device, dir.resolve("mnt"),
                List.of(dir.resolve("src")), 3, Duration.ofSeconds(5), true, List.of(), 0);
        return new BackupService(new SyncConfig(null, dir.resolve("state"), SyncConfig.DEFAULT_SSH, Map.of(),
                List.of(), List.of(spec)), new TestClock(Instant.parse("2026-11-29T22:15:00Z")), blkid);
    }

    @Test
    void probeReportsTheDiskAsItIsNowAndRecordsNothing() throws Exception {
        BackupService svc = service(Optional.empty());
        DiskProbe missing = svc.probe("drawer");
        assertThat(missing.state()).isEqualTo(DiskState.MISSING);
        assertThat(missing.message()).isEqualTo("disk LABEL=MYBK is missing");
        assertThat(blkid.calls.get(0)).containsExactly("blkid", "-c", "/dev/null", "-t", "LABEL=MYBK", "-o", "device");

        blkid.devices = List.of("/dev/loop7");
        blkid.tags = Map.of("/dev/loop7", "DEVNAME=/dev/loop7\nLABEL=MYBK\nTYPE=ext4\n");
        DiskProbe present = svc.probe("drawer");
        assertThat(present.state()).isEqualTo(DiskState.PRESENT);
        assertThat(present.device()).contains(Path.of("/dev/loop7"));
        assertThat(present.fsType()).isEqualTo("ext4");
        assertThat(Files.exists(dir.resolve("state"))).as("a probe writes no state").isFalse();
        assertThat(svc.status().get(0)).isEqualTo(BackupState.initial("drawer"));
    }

    @Test
    void anotherFilesystemAtTheConfiguredDeviceIsTheWrongDisk() throws Exception {
        Path dev = Files.createFile(dir.resolve("fake-dev"));
        blkid.tags = Map.of(dev.toString(), "LABEL=OTHER\nTYPE=ext4\n");
        DiskProbe p = service(Optional.of(dev)).probe("drawer");
        assertThat(p.state()).isEqualTo(DiskState.WRONG_DISK);
        assertThat(p.message()).isEqualTo("wrong disk at " + dev + ": found LABEL=OTHER, expected LABEL=MYBK");
    }

    /** A scheduled time with the disk out of the drawer: a skip in the state (and log), nothing run. */
    @Test
    void aScheduledTimeWithoutTheDiskIsASkipWithAStatusLine() {
        BackupSpec spec = new BackupSpec("drawer", Optional.of("MYBK"), Optional.empty(), Optional.empty(),
                dir.resolve("mnt"), List.of(dir.resolve("src")), 3, Duration.ofSeconds(5), true, List.of(), 0,
                Optional.of("0 3 * * *"), org.jheartbeat.sync.config.BackupProfile.DATA);
        TestClock clock = new TestClock(Instant.parse("2026-12-06T01:00:00Z"));
        BackupService svc = new BackupService(new SyncConfig(null, dir.resolve("state"), SyncConfig.DEFAULT_SSH,
                Map.of(), List.of(), List.of(spec)), clock, blkid);
        assertThat(svc.nextScheduled("drawer")).contains(Instant.parse("2026-12-06T03:00:00Z"));
        assertThat(svc.pollOnce("drawer")).isEmpty();
        assertThat(svc.status().get(0).lastSkip()).isEmpty();
        clock.set(Instant.parse("2026-12-06T03:00:04Z"));
        assertThat(svc.pollOnce("drawer")).isEmpty();
        BackupState s = svc.status().get(0);
        String line = "scheduled snapshot due 2026-12-06T03:00:00Z skipped: disk LABEL=MYBK is missing (put it back in"
                + " the drawer; a snapshot is taken when it is inserted)";
        assertThat(s.lastSkip()).contains(line);
        assertThat(s.message()).isEqualTo(line);
        assertThat(s.lastResult()).isEqualTo(BackupResult.NEVER);
        assertThat(svc.nextScheduled("drawer")).contains(Instant.parse("2026-12-07T03:00:00Z"));
        assertThat(blkid.calls).allMatch(c -> c.get(0).equals("blkid"), "nothing but blkid ran");
        assertThat(dir.resolve("mnt")).doesNotExist();
    }

    @Test
    void aPollKeepsTheLastRunMessage() {
        BackupStateStore store = new BackupStateStore(dir.resolve("state"));
        store.write(new BackupState("drawer", DiskState.PRESENT, BackupResult.OK,
                Optional.of(Instant.parse("2026-11-29T22:15:00Z")), Optional.of(Instant.parse("2026-11-29T22:15:05Z")),
                "snapshot 2026-11-29T221500Z done: 1 files, 1 changed (6 B), verified", 1,
                Optional.of("2026-11-29T221500Z"), 6, 4096));
        BackupService svc = service(Optional.empty());
        assertThat(svc.pollOnce("drawer")).isEmpty();
        BackupState s = svc.status().get(0);
        assertThat(s.disk()).isEqualTo(DiskState.MISSING);
        assertThat(s.message()).isEqualTo("disk LABEL=MYBK is missing");
        assertThat(s.lastResult()).isEqualTo(BackupResult.OK);
        assertThat(s.lastRunMessage()).isEqualTo("snapshot 2026-11-29T221500Z done: 1 files, 1 changed (6 B), verified");

        BackupOutcome refused = svc.runNow("drawer");
        assertThat(refused.result()).isEqualTo(BackupResult.REFUSED);
        assertThat(refused.message()).isEqualTo("disk LABEL=MYBK is missing: no snapshot taken");
        BackupState after = svc.status().get(0);
        assertThat(after.message()).isEqualTo("disk LABEL=MYBK is missing: no snapshot taken");
        assertThat(after.lastRunMessage()).as("a refused run without the disk is not the last run")
                .isEqualTo("snapshot 2026-11-29T221500Z done: 1 files, 1 changed (6 B), verified");
        assertThat(after.lastEnd()).contains(Instant.parse("2026-11-29T22:15:05Z"));
    }
}
