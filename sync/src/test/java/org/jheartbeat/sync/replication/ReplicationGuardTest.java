package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.MountTable;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicationGuardTest {
    private static final String INTENDED = ": if that is intended, run 'hb sync run web --accept-loss' on this node; until then the replica keeps every file";
    @TempDir
    Path tmp;

    private final java.util.List<MountTable.Entry> none = MountTable.parse("");

    private Path tree(String name, int files) throws IOException {
        Path d = Files.createDirectories(tmp.resolve(name));
        Files.createDirectories(d.resolve("sub"));
        for (int i = 0; i < files; i++) {
            Files.writeString(d.resolve("sub").resolve("f" + i), "x" + i);
        }
        return d;
    }

    @Test
    void probeCountsEveryEntryBelowTheDirectory() throws IOException {
        Path d = tree("web", 5);
        Files.createSymbolicLink(d.resolve("link"), d.resolve("sub"));
        PathFacts f = PathFacts.probe(d, none);
        assertThat(f).isEqualTo(new PathFacts(d, true, false, 7)); // sub, 5 files, link (not followed)
        assertThat(PathFacts.probe(tmp.resolve("missing"), none)).isEqualTo(new PathFacts(tmp.resolve("missing"), false, false, 0));
    }

    @Test
    void missingSourceAlwaysRefusesEvenWithoutDelete() throws IOException {
        Path missing = tmp.resolve("gone");
        ReplicationJobSpec noDelete = Jobs.pathJob("web", "g", List.of(missing), tmp.resolve("r"), false, false, 0.5, 0, List.of());
        assertThat(ReplicationGuard.check(noDelete, List.of(PathFacts.probe(missing, none)), Map.of()))
                .isEqualTo(ReplicationGuard.Decision.refuse(missing + " does not exist or is not a directory"));
    }

    @Test
    void emptySourceRefusesWithDeleteOnly() throws IOException {
        Path d = Files.createDirectories(tmp.resolve("empty"));
        PathFacts f = PathFacts.probe(d, none);
        assertThat(f.fileCount()).isZero();
        assertThat(ReplicationGuard.check(Jobs.simple("web", d, tmp.resolve("r")), List.of(f), Map.of()))
                .isEqualTo(ReplicationGuard.Decision.refuse(d + " is empty" + INTENDED));
        ReplicationJobSpec noDelete = Jobs.pathJob("web", "g", List.of(d), tmp.resolve("r"), false, false, 0.5, 0, List.of());
        assertThat(ReplicationGuard.check(noDelete, List.of(f), Map.of())).isEqualTo(ReplicationGuard.Decision.ALLOW);
    }

    @Test
    void shrinkageBeyondMaxLossRefuses() throws IOException {
        Path d = tree("web", 37); // 38 entries now
        PathFacts f = PathFacts.probe(d, none);
        assertThat(f.fileCount()).isEqualTo(38);
        ReplicationJobSpec job = Jobs.simple("web", d, tmp.resolve("r"));
        assertThat(ReplicationGuard.check(job, List.of(f), Map.of(d.toString(), 100L)))
                .isEqualTo(ReplicationGuard.Decision.refuse(d + " lost 62 % of its files since the last run (100 -> 38, max_loss 50 %)" + INTENDED));
        assertThat(ReplicationGuard.check(job, List.of(f), Map.of(d.toString(), 76L))).isEqualTo(ReplicationGuard.Decision.ALLOW);
        ReplicationJobSpec lenient = Jobs.pathJob("web", "g", List.of(d), tmp.resolve("r"), true, false, 1.0, 0, List.of());
        assertThat(ReplicationGuard.check(lenient, List.of(f), Map.of(d.toString(), 100_000L))).isEqualTo(ReplicationGuard.Decision.ALLOW);
    }

    @Test
    void requireMountUsesTheMountTable() throws IOException {
        Path d = tree("web", 3);
        ReplicationJobSpec job = Jobs.pathJob("web", "g", List.of(d), tmp.resolve("r"), true, true, 0.5, 0, List.of());
        assertThat(ReplicationGuard.check(job, List.of(PathFacts.probe(d, none)), Map.of()))
                .isEqualTo(ReplicationGuard.Decision.refuse(d + " is not a mount point (require_mount: true): mount it;"
                        + " until then the replica keeps every file"));
        java.util.List<MountTable.Entry> withD = MountTable.parse("36 35 98:0 / " + d.toRealPath() + " rw,noatime master:1 - ext3 /dev/root rw\n");
        assertThat(ReplicationGuard.check(job, List.of(PathFacts.probe(d, withD)), Map.of())).isEqualTo(ReplicationGuard.Decision.ALLOW);
    }

    @Test
    void mountTableReadsTheRealMountinfoAndUnescapesBlanks() throws IOException {
        assertThat(MountTable.isMountPoint(MountTable.read(), Path.of("/"))).isTrue();
        assertThat(MountTable.isMountPoint(MountTable.read(), Path.of("/proc"))).isTrue();
        assertThat(MountTable.isMountPoint(MountTable.read(), tmp)).isFalse();
        java.util.List<MountTable.Entry> t = MountTable.parse("40 1 0:5 / /mnt/my\\040disk rw - ext4 /dev/sdb1 rw\n");
        assertThat(MountTable.isMountPoint(t, Path.of("/mnt/my disk"))).isTrue();
        assertThat(MountTable.isMountPoint(t, Path.of("/mnt/my"))).isFalse();
    }

    @Test
    void acceptLossSkipsTheEmptyAndLossChecksButNotTheMountCheck() throws IOException {
        Path d = Files.createDirectories(tmp.resolve("web"));
        ReplicationJobSpec job = Jobs.pathJob("web", "g", List.of(d), tmp.resolve("r"), true, false, 0.5, 2, List.of());
        Map<String, Long> last = Map.of(d.toString(), 100L);
        assertThat(ReplicationGuard.check(job, List.of(PathFacts.probe(d, none)), last, true))
                .isEqualTo(ReplicationGuard.Decision.ALLOW);
        ReplicationJobSpec mounted = Jobs.pathJob("web", "g", List.of(d), tmp.resolve("r"), true, true, 0.5, 2, List.of());
        assertThat(ReplicationGuard.check(mounted, List.of(PathFacts.probe(d, none)), last, true).allowed()).isFalse();
    }
}
