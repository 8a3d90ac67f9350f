package org.jheartbeat.sync;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The kernel's view of what is mounted where, from {@code /proc/self/mountinfo} (format: Linux
 * {@code Documentation/filesystems/proc.rst}, section 3.5). Used to prove, before any write, that a
 * backup's mount point really is the backup disk and not the bare directory beneath it, and by the
 * replication guard to tell a mounted data partition from the bare directory beneath it.
 */
public final class MountTable {
    /** The file this reads on Linux. */
    public static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    /**
     * One mountinfo line.
     *
     * @param majorMinor {@code major:minor} of the mounted device, e.g. {@code 7:3}
     * @param mountPoint where it is mounted (octal escapes decoded)
     * @param fsType     filesystem type, e.g. {@code ext4}
     * @param source     mount source, e.g. {@code /dev/loop3}
     * @param options    per-mount options, e.g. {@code rw,nosuid,nodev,relatime}
     */
    public record Entry(String majorMinor, Path mountPoint, String fsType, String source, String options) {
        /** @return true when the mount is read-only */
        public boolean readOnly() {
            return List.of(options.split(",")).contains("ro");
        }
    }

    private MountTable() {
    }

    /**
     * @param text contents of a mountinfo file
     * @return its entries in file order (later entries are mounted on top of earlier ones);
     *         malformed lines are skipped
     */
    public static List<Entry> parse(String text) {
        List<Entry> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] f = line.trim().split(" ");
            int dash = List.of(f).indexOf("-");
            if (f.length < 7 || dash < 6 || dash + 2 >= f.length) {
                continue;
            }
            out.add(new Entry(f[2], Path.of(unescape(f[4])), f[dash + 1], unescape(f[dash + 2]), f[5]));
        }
        return out;
    }

    /**
     * @param entries    mount table entries in file order
     * @param mountPoint absolute, normalized directory
     * @return the mount visible at that directory (the last one mounted there), if any
     */
    public static Optional<Entry> topAt(List<Entry> entries, Path mountPoint) {
        Entry top = null;
        for (Entry e : entries) {
            if (e.mountPoint().equals(mountPoint)) {
                top = e;
            }
        }
        return Optional.ofNullable(top);
    }

    /**
     * @param entries mount table entries
     * @param dir     a directory; compared after {@link Path#toRealPath} when it exists (symlinks
     *                resolved), else as given (normalised)
     * @return whether something is mounted on it
     */
    public static boolean isMountPoint(List<Entry> entries, Path dir) {
        Path p;
        try {
            p = dir.toRealPath();
        } catch (IOException e) {
            p = dir.toAbsolutePath().normalize();
        }
        Path target = p;
        return entries.stream().anyMatch(e -> e.mountPoint().equals(target));
    }

    /**
     * Reads this process's mount table.
     *
     * @return the entries of {@link #MOUNTINFO}
     * @throws IOException if it cannot be read
     */
    public static List<Entry> read() throws IOException {
        return parse(Files.readString(MOUNTINFO));
    }

    /**
     * {@code major:minor} of a block device node, as mountinfo writes it; uses the {@code unix:rdev}
     * attribute of the JDK on Linux and glibc's encoding of {@code dev_t}.
     *
     * @param device block device path
     * @return e.g. {@code 7:3}
     * @throws IOException if the node cannot be stat'ed
     */
    public static String majorMinor(Path device) throws IOException {
        long rdev = ((Number) Files.getAttribute(device, "unix:rdev")).longValue();
        long major = ((rdev >>> 8) & 0xfffL) | ((rdev >>> 32) & ~0xfffL);
        long minor = (rdev & 0xffL) | ((rdev >>> 12) & ~0xffL);
        return major + ":" + minor;
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length()
                    && s.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7')) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
