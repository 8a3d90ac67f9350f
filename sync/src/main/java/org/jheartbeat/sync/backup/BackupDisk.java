package org.jheartbeat.sync.backup;

import org.jheartbeat.sync.MountTable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.sync.config.BackupSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The removable disk's thin I/O edge: finding it with {@code blkid} (util-linux; always with
 * {@code -c /dev/null} so a stale cache never reports a removed disk), {@code e2fsck -p},
 * {@code mount}/{@code umount}, and the mountinfo check that the mount point really holds the disk.
 * udev is not assumed ({@code /dev/disk/by-label} is not used).
 */
public final class BackupDisk {
    private static final Logger LOG = LoggerFactory.getLogger("backup");
    private static final Duration BLKID_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration MOUNT_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration FSCK_TIMEOUT = Duration.ofHours(2);
    /**
     * A filesystem unmounted a moment ago can still be held by the kernel (for instance by a mount
     * namespace another program was creating at that instant); mounting it again with other
     * read-only flags then fails with EBUSY ("would change RO state" in the kernel log) for a short
     * while. So a failed mount is tried this many times in all, {@link #MOUNT_RETRY_DELAY} apart.
     */
    private static final int MOUNT_ATTEMPTS = 5;
    /** e2fsck(8)'s exit code 8, "operational error" (e.g. the device is in use). */
    private static final int E2FSCK_OPERATIONAL_ERROR = 8;
    private static final Duration MOUNT_RETRY_DELAY = Duration.ofSeconds(1);

    private final ProcessRunner runner;
    private final Sleeper sleeper;

    /** @param runner runs blkid, e2fsck, mount and umount; real pauses between mount attempts */
    public BackupDisk(ProcessRunner runner) {
        this(runner, Sleeper.system());
    }

    /**
     * @param runner  runs blkid, e2fsck, mount and umount
     * @param sleeper the {@link #MOUNT_RETRY_DELAY} pause between mount attempts
     */
    public BackupDisk(ProcessRunner runner, Sleeper sleeper) {
        this.runner = Objects.requireNonNull(runner, "runner");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /**
     * Looks for the backup's disk: first by its label/UUID anywhere ({@code blkid -t}), then, when
     * {@link BackupSpec#device()} is set, at that device (a filesystem there with another
     * label/UUID is the wrong disk).
     *
     * @param spec the backup
     * @return PRESENT with the device, WRONG_DISK (message names both labels), or MISSING
     * @throws IOException if blkid cannot be run
     */
    public DiskProbe locate(BackupSpec spec) throws IOException {
        String token = spec.diskToken();
        ProcessResult r = runner.run(ProcessSpec.of(BLKID_TIMEOUT, "blkid", "-c", "/dev/null", "-t", token, "-o", "device"));
        List<String> devices = r.succeeded() ? r.stdout().lines().map(String::trim).filter(s -> !s.isEmpty()).toList()
                : List.of();
        if (!r.succeeded() && r.exitCode() != 2) {
            throw new IOException("blkid -t " + token + " failed (exit " + r.exitCode() + "): " + r.stderr().trim());
        }
        if (devices.size() > 1) {
            return new DiskProbe(DiskState.WRONG_DISK, Optional.empty(), "",
                    devices.size() + " disks carry " + token + " (" + String.join(", ", devices) + "): remove all but one");
        }
        if (devices.size() == 1) {
            Path dev = Path.of(devices.get(0));
            Map<String, String> tags = tags(dev);
            return new DiskProbe(DiskState.PRESENT, Optional.of(dev), tags.getOrDefault("TYPE", ""),
                    "disk " + token + " present at " + dev);
        }
        if (spec.device().isPresent() && Files.exists(spec.device().get())) {
            Map<String, String> tags = tags(spec.device().get());
            if (tags.containsKey("TYPE")) {
                String found = tags.containsKey("LABEL") ? "LABEL=" + tags.get("LABEL")
                        : tags.containsKey("UUID") ? "UUID=" + tags.get("UUID") : "no label";
                return new DiskProbe(DiskState.WRONG_DISK, spec.device(), tags.get("TYPE"),
                        "wrong disk at " + spec.device().get() + ": found " + found + ", expected " + token);
            }
        }
        return new DiskProbe(DiskState.MISSING, Optional.empty(), "", "disk " + token + " is missing");
    }

    /** blkid's tags of one device ({@code -o export}); empty when there is no filesystem. */
    private Map<String, String> tags(Path device) throws IOException {
        ProcessResult r = runner.run(ProcessSpec.of(BLKID_TIMEOUT, "blkid", "-c", "/dev/null", "-o", "export",
                device.toString()));
        Map<String, String> tags = new HashMap<>();
        if (r.succeeded()) {
            r.stdout().lines().forEach(l -> {
                int eq = l.indexOf('=');
                if (eq > 0) {
                    tags.put(l.substring(0, eq), l.substring(eq + 1));
                }
            });
        }
        return tags;
    }

    /**
     * Runs {@code e2fsck -p} (preen: fixes only what is safe without a human). Exit 0 (clean), 1
     * (errors corrected) and 2 (corrected, reboot advised: irrelevant for a data disk) are
     * accepted, per e2fsck(8)'s exit codes; 4 and above refuse the backup, except exit 8 with "is
     * in use" (the file system is still mounted, in another mount namespace): then the check is
     * skipped with a note, since a mounted file system cannot be checked.
     *
     * @param device the disk's block device (not mounted)
     * @param token  {@code LABEL=x} for messages
     * @return a note for the log when errors were corrected or the check was skipped, else empty
     * @throws BackupException REFUSED with e2fsck's reason when it exits 4 or more
     * @throws IOException     if e2fsck cannot be run
     */
    public Optional<String> fsck(Path device, String token) throws IOException, BackupException {
        ProcessResult r = runner.run(ProcessSpec.of(FSCK_TIMEOUT, "e2fsck", "-p", device.toString()));
        if (r.exitCode() == E2FSCK_OPERATIONAL_ERROR && (r.stdout() + r.stderr()).contains(" is in use")) {
            // Mounted elsewhere: a mount namespace created while the disk was mounted here (unshare -m,
            // a lab node, a service with a private /tmp) keeps its copy of the mount after our umount.
            // A mounted file system cannot be checked, and mounting it again here shares the kernel's
            // live superblock, so the run goes on; a disk left in the drawer would otherwise never be
            // backed up again until that namespace ends.
            return Optional.of("e2fsck skipped: " + device + " (" + token + ") is in use, probably still mounted in"
                    + " another mount namespace; not checked this time");
        }
        if (r.timedOut() || r.exitCode() >= 4) {
            String reason = (r.stdout() + "\n" + r.stderr()).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("(i.e.")).reduce((a, b) -> a + " " + b)
                    .orElse(r.timedOut() ? "timed out" : "no output");
            throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT, "e2fsck -p " + device + " (" + token
                    + ") found errors it cannot fix (exit " + r.exitCode() + "): " + reason
                    + " - no snapshot taken; run e2fsck by hand");
        }
        return r.exitCode() == 0 ? Optional.empty() : Optional.of("e2fsck corrected errors on " + device + ": " + lastLine(r));
    }

    /**
     * Mounts the disk on the mount point (created if needed), unless it is mounted there already.
     *
     * @param device     the disk's block device
     * @param mountPoint absolute directory
     * @param readOnly   mount with {@code -o ro}; if the kernel refuses because the filesystem is
     *                   still mounted read-write elsewhere, it is mounted read-write (noexec) instead
     *                   and a warning logged: the callers that ask for read-only only read
     * @return true when this call mounted it (the caller unmounts); false when it was already
     *         mounted there
     * @throws BackupException REFUSED when something else is mounted on the mount point; FAILED
     *                         when mount still fails after {@value #MOUNT_ATTEMPTS} attempts
     * @throws IOException     if mount cannot be run or mountinfo read
     */
    public boolean mount(Path device, Path mountPoint, boolean readOnly) throws IOException, BackupException {
        Path mp = mountPoint.toAbsolutePath().normalize();
        Files.createDirectories(mp);
        Optional<MountTable.Entry> top = MountTable.topAt(MountTable.read(), mp.toRealPath());
        if (top.isPresent()) {
            if (top.get().majorMinor().equals(MountTable.majorMinor(device))) {
                return false;
            }
            throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT, mp + " is already a mount of "
                    + top.get().source() + " (" + top.get().fsType() + "), not of " + device + ": unmount it first");
        }
        ProcessResult r = mountRetried(List.of("mount", "-o", readOnly ? "ro,nodev,nosuid" : "nodev,nosuid",
                device.toString(), mp.toString()), device);
        if (!r.succeeded() && readOnly && r.stderr().contains("already mounted")) {
            // The filesystem is still mounted read-write somewhere (see MOUNT_ATTEMPTS), and the kernel
            // refuses a read-only mount of the same superblock; share it read-write. Only reads follow.
            r = runner.run(ProcessSpec.of(MOUNT_TIMEOUT, "mount", "-o", "nodev,nosuid,noexec", device.toString(),
                    mp.toString()));
            if (r.succeeded()) {
                LOG.warn("{} is still mounted read-write elsewhere (another mount namespace?): mounted it read-write "
                        + "on {} for reading only", device, mp);
            }
        }
        if (!r.succeeded()) {
            throw new BackupException(BackupResult.FAILED, DiskState.PRESENT,
                    "cannot mount " + device + " on " + mp + ": " + lastLine(r)
                    + (r.stderr().contains("already mounted") ? " (is it still mounted in another mount namespace?)" : ""));
        }
        return true;
    }

    private ProcessResult mountRetried(List<String> argv, Path device) throws IOException {
        ProcessResult r = runner.run(ProcessSpec.of(MOUNT_TIMEOUT, argv));
        for (int attempt = 1; !r.succeeded() && attempt < MOUNT_ATTEMPTS; attempt++) {
            try {
                sleeper.pause(MOUNT_RETRY_DELAY);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while mounting " + device);
            }
            r = runner.run(ProcessSpec.of(MOUNT_TIMEOUT, argv));
        }
        return r;
    }

    /**
     * Proves, from {@code /proc/self/mountinfo}, that the mount point is a mount of the device:
     * called before any write so nothing ever lands in the bare directory.
     *
     * @param device     the disk's block device
     * @param mountPoint absolute directory
     * @throws BackupException FAILED when the mount point is not (or no longer) that device
     * @throws IOException     if mountinfo or the device cannot be read
     */
    public void verifyMounted(Path device, Path mountPoint) throws IOException, BackupException {
        Path mp = mountPoint.toAbsolutePath().normalize().toRealPath();
        Optional<MountTable.Entry> top = MountTable.topAt(MountTable.read(), mp);
        String want = MountTable.majorMinor(device);
        if (top.isEmpty() || !top.get().majorMinor().equals(want)) {
            throw new BackupException(BackupResult.FAILED, DiskState.PRESENT, mp + " is not a mount of " + device
                    + " (" + want + ")" + top.map(e -> " but of " + e.source()).orElse(" but a bare directory")
                    + ": nothing written");
        }
    }

    /**
     * Unmounts the mount point.
     *
     * @param mountPoint absolute directory
     * @return empty on success, else umount's reason
     * @throws IOException if umount cannot be run
     */
    public Optional<String> unmount(Path mountPoint) throws IOException {
        ProcessResult r = runner.run(ProcessSpec.of(MOUNT_TIMEOUT, "umount", mountPoint.toString()));
        return r.succeeded() ? Optional.empty() : Optional.of("umount " + mountPoint + " failed: " + lastLine(r));
    }

    /** The last meaningful line a program printed (stderr first; mount's dmesg hint skipped). */
    static String lastLine(ProcessResult r) {
        String text = r.stderr().isBlank() ? r.stdout() : r.stderr();
        String line = text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("dmesg(1)"))
                .reduce((a, b) -> b).orElse("");
        return r.timedOut() ? "timed out" : line.isEmpty() ? "exit " + r.exitCode() : line;
    }
}
