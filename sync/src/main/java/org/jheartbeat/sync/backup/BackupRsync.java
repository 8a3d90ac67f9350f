package org.jheartbeat.sync.backup;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.sync.config.BackupSpec;

/**
 * Pure rules of a backup's rsync command lines: the options every copy and comparison of one backup
 * share (so a verify judges exactly what the copy copied), the whole-system profile's excludes, and
 * the reading of rsync's {@code --itemize-changes} output.
 */
final class BackupRsync {
    /**
     * What a whole-system backup leaves out under each source, relative to it: the contents of the
     * kernel's pseudo file systems and of the directories that hold only run-time or cached files
     * (the directories themselves are kept, empty, so the restored system has its mount points),
     * and the file system's own {@code lost+found} (mkfs makes a new one). The usual list of
     * rsync-based system backups (e.g. the Arch wiki's "rsync" full-system backup).
     */
    static final List<String> SYSTEM_EXCLUDES = List.of("/proc/*", "/sys/*", "/dev/*", "/run/*", "/tmp/*",
            "/var/tmp/*", "/var/cache/apt/archives/*.deb", "/var/cache/apt/archives/partial/*", "/lost+found");

    private BackupRsync() {
    }

    /**
     * The options after {@code rsync} shared by the copy, its verify and {@code hb backup verify}:
     * archive mode with hard links and full paths ({@code -aHR}), numeric ids; for a whole-system
     * backup also ACLs and extended attributes ({@code -AX}: file capabilities live there), one file
     * system per source ({@code --one-file-system}: nested mounts such as /proc or another disk are
     * left out, their mount-point directories kept empty) and {@link #systemExcludes}; then the
     * backup's own {@code rsync_options}.
     *
     * @param spec      the backup
     * @param swapFiles swap files in use ({@link #swapFiles}), excluded by a whole-system backup
     * @return the options, without sources and destination
     */
    static List<String> options(BackupSpec spec, List<Path> swapFiles) {
        List<String> argv = new ArrayList<>(List.of("-aHR", "--numeric-ids"));
        if (spec.system()) {
            argv.add("-AX");
            argv.add("--one-file-system");
            systemExcludes(spec, swapFiles).forEach(p -> argv.add("--exclude=" + p));
        }
        argv.addAll(spec.rsyncOptions());
        return argv;
    }

    /**
     * The whole-system excludes as anchored rsync patterns (with {@code -R} an anchored pattern is
     * matched against the full path): {@link #SYSTEM_EXCLUDES} under each source, the contents of
     * the backup disk's mount point, and each swap file.
     *
     * @param spec      the backup
     * @param swapFiles swap files in use
     * @return the patterns, in that order
     */
    static List<String> systemExcludes(BackupSpec spec, List<Path> swapFiles) {
        List<String> out = new ArrayList<>();
        for (Path src : spec.paths()) {
            String base = src.getNameCount() == 0 ? "" : escape(src.toString());
            SYSTEM_EXCLUDES.forEach(e -> out.add(base + e));
        }
        out.add(escape(spec.mountPoint().toString()) + "/*");
        swapFiles.forEach(f -> out.add(escape(f.toString())));
        return out;
    }

    /** Escapes rsync's wildcard characters so a path is matched literally inside a wildcard pattern. */
    static String escape(String path) {
        StringBuilder b = new StringBuilder();
        for (char c : path.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /**
     * The swap files of {@code /proc/swaps} (type {@code file}; partitions are not in any file
     * system). Its first column escapes blanks as octal ({@code \040}), like mountinfo.
     *
     * @param procSwaps the text of /proc/swaps
     * @return the swap files' paths
     */
    static List<Path> swapFiles(String procSwaps) {
        List<Path> out = new ArrayList<>();
        for (String line : procSwaps.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 2 && f[1].equals("file") && f[0].startsWith("/")) {
                out.add(Path.of(unescapeOctal(f[0])));
            }
        }
        return out;
    }

    private static String unescapeOctal(String s) {
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

    /**
     * Whether an itemized line of the copy's own verify is a content difference: a transfer
     * ({@code >}), creation ({@code c}), hard link ({@code h}) or deletion ({@code *deleting}).
     */
    static boolean contentDifference(String line) {
        return !line.isEmpty() && ">ch*".indexOf(line.charAt(0)) >= 0;
    }

    /**
     * One difference between a source and a snapshot, for {@code hb backup verify}.
     *
     * @param kind what differs: {@code changed}, {@code missing from snapshot}, {@code only in
     *             snapshot}, {@code attributes} ({@code p} mode, {@code o} owner, {@code g} group,
     *             {@code a} ACL, {@code x} xattrs, {@code L} a symbolic link's target)
     * @param path the path as rsync names it (relative, full path under {@code -R})
     */
    record Difference(String kind, String path) {
        Difference {
            // rsync -R itemizes sent paths as given (absolute) and deletions relative to the destination
            path = path.replaceFirst("^/+", "");
        }

        @Override
        public String toString() {
            return kind + ": /" + path;
        }
    }

    /**
     * Reads the output of {@code rsync --dry-run --checksum --itemize-changes --delete SOURCES
     * SNAPSHOT/} (rsync(1), "--itemize-changes": {@code YXcstpoguax path}). Times alone are not a
     * difference (a directory's mtime moves whenever a file in it is created); content, existence,
     * mode, owner, group, ACL and xattrs are.
     *
     * @param itemized rsync's standard output
     * @return the differences, in rsync's order
     */
    static List<Difference> differences(String itemized) {
        List<Difference> out = new ArrayList<>();
        for (String line : itemized.split("\n")) {
            if (line.startsWith("*deleting ")) {
                out.add(new Difference("only in snapshot", line.substring("*deleting ".length()).strip()));
                continue;
            }
            int sp = line.indexOf(' ');
            if (sp != 11 || line.length() <= 12) {
                continue;
            }
            String flags = line.substring(0, 11);
            String path = line.substring(12);
            char y = flags.charAt(0);
            if (flags.substring(2).startsWith("+++++++++")) {
                out.add(new Difference("missing from snapshot", path));
            } else if (y == '>' || y == 'c' && flags.charAt(1) != 'd') {
                out.add(new Difference("changed", cut(path)));
            } else if (y == 'h') {
                out.add(new Difference("hard link differs", cut(path)));
            } else {
                StringBuilder what = new StringBuilder();
                String names = "..cstpoguax";
                for (int i = 5; i < 11; i++) {
                    if (i != 8 && flags.charAt(i) != '.' && flags.charAt(i) != ' ') {
                        what.append(names.charAt(i));
                    }
                }
                if (flags.charAt(3) == 's' && flags.charAt(1) == 'L') {
                    what.append('L');
                }
                if (what.length() > 0) {
                    out.add(new Difference("attributes (" + what + ")", cut(path)));
                }
            }
        }
        return out;
    }

    /** A symlink or hard-link line names its target after {@code " -> "} or {@code " => "}: the path is before. */
    private static String cut(String path) {
        int arrow = Math.max(path.indexOf(" -> "), path.indexOf(" => "));
        return arrow > 0 ? path.substring(0, arrow) : path;
    }
}
