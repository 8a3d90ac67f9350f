package org.jheartbeat.sync.backup;

import org.jheartbeat.sync.MountTable;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real ext4 image file on a loop device, for the root-only ITs. It only ever detaches the loop
 * device it attached itself (checked against losetup's back file) and unmounts only mounts of that
 * device.
 */
final class LoopImage implements AutoCloseable {
    final Path image;
    final String label;
    private String device;

    /** Creates and formats {@code image} (sizeMb MiB) with the label; not attached yet. */
    LoopImage(Path image, String label, int sizeMb) throws Exception {
        this.image = image;
        this.label = label;
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(sizeMb * 1024L * 1024L);
        }
        sh("mkfs.ext4", "-q", "-F", "-L", label, image.toString());
    }

    /** "Inserts" the disk: attaches the image to a free loop device. */
    String attach() throws Exception {
        device = sh("losetup", "-f", "--show", image.toString()).strip();
        return device;
    }

    String device() {
        return device;
    }

    /** "Removes" the disk: unmounts any mount of our device, detaches it. */
    void detach() throws Exception {
        if (device == null) {
            return;
        }
        String mm = MountTable.majorMinor(Path.of(device));
        List<MountTable.Entry> mine = new ArrayList<>(MountTable.read().stream()
                .filter(e -> e.majorMinor().equals(mm)).toList());
        java.util.Collections.reverse(mine);
        for (MountTable.Entry e : mine) {
            run("umount", e.mountPoint().toString());
        }
        String back = run("losetup", "-n", "-O", "BACK-FILE", device).strip();
        if (back.startsWith(image.toString())) {
            sh("losetup", "-d", device);
        }
        device = null;
    }

    /**
     * Mounts our device on dir for inspecting the snapshots: read-only, retried for up to 5 s. If
     * the filesystem is still mounted read-write elsewhere (a mount namespace another program
     * created while the backup had it mounted keeps a copy of that mount), the kernel refuses a
     * read-only second mount with EBUSY; then it is mounted read-write, sharing that superblock.
     */
    void mountRo(Path dir) throws Exception {
        Files.createDirectories(dir);
        IOException last = null;
        for (int i = 0; i < 10; i++) {
            try {
                sh("mount", "-o", "ro", device, dir.toString());
                return;
            } catch (IOException e) {
                last = e;
                Thread.sleep(500);
            }
        }
        try {
            sh("mount", device, dir.toString());
        } catch (IOException e) {
            e.addSuppressed(last);
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        detach();
    }

    static String sh(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", argv) + " failed: " + out);
        }
        return out;
    }

    /** Like {@link #sh} but ignoring the exit status (cleanup paths). */
    static String run(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(120, TimeUnit.SECONDS);
        return out;
    }
}
