package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.sync.MountTable;
import org.jheartbeat.sync.config.BackupProfile;
import org.jheartbeat.sync.config.BackupSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layout record beside a whole-system snapshot, with blkid, lsblk and sfdisk answered as on a
 * machine with one partitioned disk (what the lab's loop devices cannot show: no partition scan here).
 */
class LayoutRecordTest {
    @TempDir
    Path dir;

    private static final String MOUNTINFO = """
            22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw
            23 22 0:5 / /proc rw,nosuid shared:2 - proc proc rw
            24 22 8:1 / /boot rw,relatime shared:3 - ext4 /dev/sda1 rw
            25 24 8:1 / /boot rw,noatime shared:4 - ext4 /dev/sda1 rw
            """;

    /** Answers like a disk sda with sda1 (/boot) and sda2 (/); sfdisk missing when asked. */
    private static final class FakeTools implements ProcessRunner {
        final List<List<String>> calls = new ArrayList<>();
        boolean noSfdisk;

        @Override
        public ProcessResult run(ProcessSpec spec) throws IOException {
            List<String> a = spec.argv();
            calls.add(a);
            String last = a.get(a.size() - 1);
            return switch (a.get(0)) {
                case "blkid" -> new ProcessResult(0, last.equals("/dev/sda2")
                        ? "DEVNAME=/dev/sda2\nUUID=1111-root\nBLOCK_SIZE=4096\nTYPE=ext4\nLABEL=root fs\nPARTUUID=aa-02\n"
                        : "DEVNAME=/dev/sda1\nUUID=2222-boot\nTYPE=ext4\nPARTUUID=aa-01\n", "", false);
                case "lsblk" -> a.contains("-J") ? new ProcessResult(0, "{\"blockdevices\": []}\n", "", false)
                        : new ProcessResult(0, "sda\n", "", false);
                case "sfdisk" -> {
                    if (noSfdisk) {
                        throw new IOException("Cannot run program \"sfdisk\": error=2, No such file or directory");
                    }
                    yield new ProcessResult(0, "label: gpt\ndevice: /dev/sda\n/dev/sda1 : start=2048, size=1024\n", "",
                            false);
                }
                default -> throw new IOException("unexpected " + a);
            };
        }
    }

    private BackupSpec spec() {
        return new BackupSpec("system", Optional.of("JHB"), Optional.empty(), Optional.empty(), Path.of("/mnt/b"),
                List.of(Path.of("/"), Path.of("/boot")), 3, Duration.ofSeconds(10), true, List.of(), 0, Optional.empty(),
                BackupProfile.SYSTEM);
    }

    private Path sys() throws IOException {
        Path sys = dir.resolve("sys");
        Files.createDirectories(sys.resolve("8:2"));
        Files.writeString(sys.resolve("8:2/uevent"), "MAJOR=8\nMINOR=2\nDEVNAME=sda2\nDEVTYPE=partition\n");
        Files.createDirectories(sys.resolve("8:1"));
        Files.writeString(sys.resolve("8:1/uevent"), "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\n");
        return sys;
    }

    @Test
    void theMountOfAPathIsTheDeepestAndLastMounted() {
        List<MountTable.Entry> m = MountTable.parse(MOUNTINFO);
        assertThat(LayoutRecord.mountOf(m, Path.of("/boot/grub")).orElseThrow().options()).isEqualTo("rw,noatime");
        assertThat(LayoutRecord.mountOf(m, Path.of("/")).orElseThrow().source()).isEqualTo("/dev/sda2");
        assertThat(LayoutRecord.mountOf(m, Path.of("/bootx")).orElseThrow().source()).isEqualTo("/dev/sda2");
    }

    @Test
    void eachSourceGetsItsFileSystemAndTheDiskItsPartitionTable() throws Exception {
        FakeTools tools = new FakeTools();
        Path out = dir.resolve("2026-12-06T030000Z.layout");
        List<String> notes = new LayoutRecord(tools, sys()).write(spec(), out, "2026-12-06T030000Z",
                MountTable.parse(MOUNTINFO));
        assertThat(notes).isEmpty();
        assertThat(Files.readString(out.resolve("layout.txt"))).isEqualTo("""
                # jheartbeat whole-system layout: backup system, snapshot 2026-12-06T030000Z
                # restore onto a new disk: docs/design/sync.md, "Restoring a whole system onto a new disk"

                source=/
                device=/dev/sda2
                disk=/dev/sda
                partition_table=sfdisk-sda.dump
                uuid=1111-root
                block_size=4096
                type=ext4
                label=root fs
                partuuid=aa-02
                mount_point=/
                mount_options=rw,relatime

                source=/boot
                device=/dev/sda1
                disk=/dev/sda
                partition_table=sfdisk-sda.dump
                uuid=2222-boot
                type=ext4
                partuuid=aa-01
                mount_point=/boot
                mount_options=rw,noatime
                """);
        assertThat(Files.readString(out.resolve("sfdisk-sda.dump"))).startsWith("label: gpt\n");
        assertThat(Files.readString(out.resolve("lsblk.json"))).contains("blockdevices");
        assertThat(Files.readString(out.resolve("blkid.txt"))).contains("# /boot\nDEVNAME=/dev/sda1\n");
        assertThat(tools.calls).contains(List.of("sfdisk", "-d", "/dev/sda"),
                List.of("lsblk", "-J", "-b", "-o", "NAME,PATH,TYPE,SIZE,PKNAME,FSTYPE,UUID,LABEL,PARTUUID,PARTTYPE,"
                        + "PARTLABEL,MOUNTPOINT", "/dev/sda"));
        assertThat(tools.calls).allMatch(c -> List.of("blkid", "lsblk", "sfdisk").contains(c.get(0)),
                "read-only tools only");
    }

    @Test
    void aMissingSfdiskIsAGapInTheRecordNotAFailure() throws Exception {
        FakeTools tools = new FakeTools();
        tools.noSfdisk = true;
        Path out = dir.resolve("s.layout");
        List<String> notes = new LayoutRecord(tools, sys()).write(spec(), out, "s", MountTable.parse(MOUNTINFO));
        assertThat(notes).hasSize(2).allMatch(n -> n.startsWith("sfdisk cannot be run (install Debian's fdisk package)"));
        assertThat(Files.readString(out.resolve("layout.txt"))).contains("partition_table=none: sfdisk -d /dev/sda: "
                + "sfdisk cannot be run (install Debian's fdisk package)");
    }
}
