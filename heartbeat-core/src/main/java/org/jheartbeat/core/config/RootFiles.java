package org.jheartbeat.core.config;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Files whose contents run as root (haresources, ha.cf's {@code respawn} lines, sync.yaml hooks,
 * jheartbeat.yaml's self-fence command, {@code resource.d} scripts, ldirectord.cf commands) must be
 * writable by root only, as authkeys must be readable by root only ({@link AuthKeysParser#checkSecurity}):
 * whoever can write one of them runs commands as root at the next start, reload or failover. A file
 * that group or others may write, or that belongs to another user than root (or the user running
 * this check, for a copy checked without root), is an error at {@code hb config check} and at start.
 * A directory holding them is checked the same way, since whoever may write it may replace them.
 * Symbolic links are followed: what counts is the file that runs.
 */
public final class RootFiles {
    private static final Set<PosixFilePermission> WRITE_BY_OTHERS = Set.of(PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_WRITE);

    private RootFiles() {
    }

    /**
     * The decision, pure.
     *
     * @param what     how the message names the file, e.g. {@code haresources}
     * @param perms    its permissions
     * @param ownerUid its owner
     * @param selfUid  the uid of this process (0 for the daemon)
     * @return what is wrong and the command that fixes it (ending in the file's path), or empty
     */
    static Optional<String> problem(String what, Path file, Set<PosixFilePermission> perms, int ownerUid, int selfUid) {
        if (perms.stream().anyMatch(WRITE_BY_OTHERS::contains)) {
            return Optional.of(what + " is mode " + AuthKeysParser.octal(perms) + ", writable by others than root, and"
                    + " its contents run as root; chmod go-w " + file);
        }
        if (ownerUid != 0 && ownerUid != selfUid) {
            return Optional.of(what + " is owned by uid " + ownerUid + ", who can change it, and its contents run as"
                    + " root; chown root " + file);
        }
        return Optional.empty();
    }

    /**
     * Checks one regular file or directory if it exists (a missing one, or a device or pipe in its
     * place, is the reading's business, as for authkeys).
     *
     * @param file the file
     * @param what how the message names it
     * @return an error at line 0 of {@code file}, or nothing
     */
    public static List<ConfigDiagnostic> check(Path file, String what) {
        if (!Files.isRegularFile(file) && !Files.isDirectory(file)) {
            return List.of();
        }
        try {
            PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class);
            return problem(what, file, a.permissions(), uid(file), selfUid())
                    .map(m -> List.of(ConfigDiagnostic.error(file, 0, m))).orElse(List.of());
        } catch (UnsupportedOperationException e) {
            return List.of(ConfigDiagnostic.warning(file, 0, "cannot check who may write " + what
                    + " on this file system; its contents run as root"));
        } catch (IOException e) {
            return List.of(ConfigDiagnostic.error(file, 0, "cannot check who may write " + what + ": " + e));
        }
    }

    /**
     * Checks a config directory's own files whose contents run as root: the directory, ha.cf,
     * haresources, sync.yaml, jheartbeat.yaml, and {@code resource.d} with every file in it.
     *
     * @param configDir e.g. {@code /etc/ha.d}
     * @return the errors, in that order
     */
    public static List<ConfigDiagnostic> checkConfigDir(Path configDir) {
        List<ConfigDiagnostic> out = new ArrayList<>(check(configDir, "the config directory"));
        for (String name : List.of("ha.cf", "haresources", "sync.yaml", "jheartbeat.yaml")) {
            out.addAll(check(configDir.resolve(name), name));
        }
        Path resourceD = configDir.resolve("resource.d");
        if (Files.isDirectory(resourceD)) {
            out.addAll(check(resourceD, "resource.d"));
            List<Path> scripts = new ArrayList<>();
            try (DirectoryStream<Path> s = Files.newDirectoryStream(resourceD)) {
                s.forEach(scripts::add);
            } catch (IOException e) {
                out.add(ConfigDiagnostic.error(resourceD, 0, "cannot list resource.d: " + e));
            }
            scripts.sort(null);
            for (Path p : scripts) {
                out.addAll(check(p, "resource.d script " + p.getFileName()));
            }
        }
        return out;
    }

    private static int uid(Path file) throws IOException {
        try {
            return (Integer) Files.getAttribute(file, "unix:uid");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return Files.getOwner(file).getName().equals("root") ? 0 : -1;
        }
    }

    /** This process's effective uid: the owner of {@code /proc/self}; 0 where that cannot be read. */
    private static int selfUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 0;
        }
    }
}
