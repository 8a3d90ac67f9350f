package org.jheartbeat.sync.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.sync.AtomicFiles;
import org.jheartbeat.sync.MountTable;
import org.jheartbeat.sync.config.BackupSpec;

/**
 * The disk layout a whole-system snapshot needs to be restored onto a new disk, written beside the
 * snapshot as {@code <snapshot>.layout/}: per source its file system (device, type, UUID, label,
 * mount options) and the partition table of the disk holding it. Only read-only commands run:
 * {@code blkid -c /dev/null -o export DEV}, {@code lsblk -J -b -o ...} and {@code sfdisk -d DISK}
 * (util-linux; sfdisk is in Debian's {@code fdisk} package). A command that fails or is missing is
 * written into the record as such, never fatal: the snapshot stays useful without it. The restore
 * procedure that reads it is in docs/design/sync.md ("Restoring a whole system onto a new disk").
 *
 * <p>Files: {@code layout.txt} (one block of {@code key=value} lines per source, see
 * {@link #block}), {@code sfdisk-<disk>.dump} (input for {@code sfdisk DISK < dump}),
 * {@code lsblk.json}, {@code blkid.txt}.
 */
final class LayoutRecord {
    /** Suffix of the record directory beside a snapshot. */
    static final String SUFFIX = ".layout";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String LSBLK_COLUMNS = "NAME,PATH,TYPE,SIZE,PKNAME,FSTYPE,UUID,LABEL,PARTUUID,PARTTYPE,"
            + "PARTLABEL,MOUNTPOINT";

    private final ProcessRunner runner;
    private final Path sysDevBlock;

    /**
     * @param runner      runs blkid, lsblk and sfdisk
     * @param sysDevBlock {@code /sys/dev/block} (a device's {@code uevent} names its node)
     */
    LayoutRecord(ProcessRunner runner, Path sysDevBlock) {
        this.runner = runner;
        this.sysDevBlock = sysDevBlock;
    }

    /**
     * The mount a path lives on: the longest mount point that contains it, the last mounted there.
     *
     * @param entries mountinfo entries in file order
     * @param path    absolute, real path
     * @return the entry, empty when none contains it (no {@code /} in the table)
     */
    static Optional<MountTable.Entry> mountOf(List<MountTable.Entry> entries, Path path) {
        MountTable.Entry best = null;
        for (MountTable.Entry e : entries) {
            if (path.startsWith(e.mountPoint())
                    && (best == null || e.mountPoint().getNameCount() >= best.mountPoint().getNameCount())) {
                best = e;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * One source's block of {@code layout.txt}: {@code source}, {@code device}, {@code disk},
     * {@code partition_table} (a dump file's name, or {@code none: REASON}), then blkid's tags in
     * lower case ({@code type}, {@code uuid}, {@code label}, ...), {@code mount_point} and
     * {@code mount_options}; one {@code key=value} a line, values as found.
     */
    static String block(Path source, String device, String disk, String partitionTable, Map<String, String> tags,
                        MountTable.Entry mount) {
        StringBuilder b = new StringBuilder();
        b.append("source=").append(source).append('\n');
        b.append("device=").append(device).append('\n');
        b.append("disk=").append(disk).append('\n');
        b.append("partition_table=").append(partitionTable).append('\n');
        tags.forEach((k, v) -> {
            if (!k.equals("DEVNAME")) {
                b.append(k.toLowerCase(java.util.Locale.ROOT)).append('=').append(v).append('\n');
            }
        });
        b.append("mount_point=").append(mount.mountPoint()).append('\n');
        b.append("mount_options=").append(mount.options()).append('\n');
        return b.toString();
    }

    /**
     * Writes the record of every source of a whole-system backup.
     *
     * @param spec     the backup
     * @param dir      the record directory ({@code <snapshot>.layout}), created
     * @param snapshot the snapshot's name, for the header
     * @param mounts   this process's mount table
     * @return notes for the log (a command that failed), empty when everything was recorded
     * @throws IOException if the files cannot be written
     */
    List<String> write(BackupSpec spec, Path dir, String snapshot, List<MountTable.Entry> mounts) throws IOException {
        Files.createDirectories(dir);
        List<String> notes = new ArrayList<>();
        StringBuilder layout = new StringBuilder("# jheartbeat whole-system layout: backup " + spec.name()
                + ", snapshot " + snapshot + "\n# restore onto a new disk: docs/design/sync.md,"
                + " \"Restoring a whole system onto a new disk\"\n");
        StringBuilder blkid = new StringBuilder();
        Set<String> devices = new LinkedHashSet<>();
        Set<String> dumped = new LinkedHashSet<>();
        for (Path src : spec.paths()) {
            Path real = real(src);
            MountTable.Entry m = mountOf(mounts, real).orElseThrow(() -> new IOException("no mount holds " + real));
            String device = deviceNode(m);
            ProcessResult tags = run(notes, "blkid", "-c", "/dev/null", "-o", "export", device);
            blkid.append("# ").append(src).append('\n').append(tags.stdout());
            String parent = run(notes, "lsblk", "-n", "-o", "PKNAME", device).stdout().strip();
            String disk = parent.isEmpty() ? device : "/dev/" + parent;
            devices.add(disk);
            String table;
            String dumpName = "sfdisk-" + Path.of(disk).getFileName() + ".dump";
            ProcessResult dump;
            try {
                dump = runner.run(ProcessSpec.of(TIMEOUT, "sfdisk", "-d", disk));
            } catch (IOException e) {
                dump = new ProcessResult(127, "", "sfdisk cannot be run (install Debian's fdisk package): "
                        + e.getMessage(), false);
                notes.add(dump.stderr());
            }
            if (dump.succeeded()) {
                if (dumped.add(dumpName)) {
                    AtomicFiles.writeString(dir.resolve(dumpName), dump.stdout());
                }
                table = dumpName;
            } else {
                table = "none: sfdisk -d " + disk + ": " + BackupDisk.lastLine(dump);
            }
            layout.append('\n').append(block(src, device, disk, table, export(tags.stdout()), m));
        }
        List<String> lsblk = new ArrayList<>(List.of("lsblk", "-J", "-b", "-o", LSBLK_COLUMNS));
        lsblk.addAll(devices);
        ProcessResult json = run(notes, lsblk.toArray(String[]::new));
        AtomicFiles.writeString(dir.resolve("lsblk.json"), json.succeeded() ? json.stdout()
                : "{\"error\": \"" + BackupDisk.lastLine(json).replace("\\", "\\\\").replace("\"", "\\\"") + "\"}\n");
        AtomicFiles.writeString(dir.resolve("blkid.txt"), blkid.toString());
        AtomicFiles.writeString(dir.resolve("layout.txt"), layout.toString());
        return notes;
    }

    /** The source with symbolic links resolved, as mountinfo names mount points; as given when it cannot be. */
    private static Path real(Path src) {
        try {
            return src.toRealPath();
        } catch (IOException e) {
            return src.toAbsolutePath().normalize();
        }
    }

    /** Runs a read-only command; a failure (or a missing program) becomes a note and an empty result. */
    private ProcessResult run(List<String> notes, String... argv) {
        try {
            ProcessResult r = runner.run(ProcessSpec.of(TIMEOUT, argv));
            if (!r.succeeded()) {
                notes.add(String.join(" ", argv) + ": " + BackupDisk.lastLine(r));
            }
            return r;
        } catch (IOException e) {
            notes.add(argv[0] + " cannot be run: " + e.getMessage());
            return new ProcessResult(127, "", e.getMessage(), false);
        }
    }

    /** The block device node of a mount: {@code /dev/} + the DEVNAME of its sysfs uevent, else the mount source. */
    private String deviceNode(MountTable.Entry m) {
        Path uevent = sysDevBlock.resolve(m.majorMinor()).resolve("uevent");
        try {
            for (String l : Files.readAllLines(uevent)) {
                if (l.startsWith("DEVNAME=")) {
                    return "/dev/" + l.substring("DEVNAME=".length());
                }
            }
        } catch (IOException e) {
            // not a block device (tmpfs, overlay): the mount source is all there is
        }
        return m.source();
    }

    /** blkid's {@code -o export} output as an ordered map. */
    static Map<String, String> export(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        text.lines().forEach(l -> {
            int eq = l.indexOf('=');
            if (eq > 0) {
                out.put(l.substring(0, eq), l.substring(eq + 1));
            }
        });
        return out;
    }
}
