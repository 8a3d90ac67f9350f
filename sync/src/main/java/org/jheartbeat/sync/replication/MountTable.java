package org.jheartbeat.sync.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The mount targets listed by {@code /proc/self/mountinfo} (proc(5): the fifth field is the mount
 * point, relative to the process's root, with blanks, tabs, newlines and backslashes escaped as
 * octal {@code \040}, {@code \011}, {@code \012}, {@code \134}). A directory is a mount point when it
 * is exactly one of these targets; no stat/device-number comparison is used, so bind mounts of a
 * directory onto itself count too.
 */
public final class MountTable {
    /** The file read by {@link #read()}. */
    public static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    private final Set<Path> targets;

    private MountTable(Set<Path> targets) {
        this.targets = Set.copyOf(targets);
    }

    /**
     * Parses mountinfo text.
     *
     * @param mountinfo the file's contents
     * @return the table; lines with fewer than five fields are skipped
     */
    public static MountTable parse(String mountinfo) {
        Set<Path> out = new HashSet<>();
        for (String line : mountinfo.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length >= 5) {
                out.add(Path.of(unescape(f[4])));
            }
        }
        return new MountTable(out);
    }

    /**
     * Reads {@link #MOUNTINFO}.
     *
     * @return the current table
     * @throws IOException if the file cannot be read (not Linux, no /proc)
     */
    public static MountTable read() throws IOException {
        return parse(Files.readString(MOUNTINFO, StandardCharsets.UTF_8));
    }

    /**
     * @param dir a directory; compared after {@link Path#toRealPath} when it exists (symlinks
     *            resolved), else as given (normalised)
     * @return whether it is a mount target
     */
    public boolean isMountPoint(Path dir) {
        Path p;
        try {
            p = dir.toRealPath();
        } catch (IOException e) {
            p = dir.toAbsolutePath().normalize();
        }
        return targets.contains(p);
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
