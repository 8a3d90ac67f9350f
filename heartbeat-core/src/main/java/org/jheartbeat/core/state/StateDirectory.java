package org.jheartbeat.core.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.RootFiles;

/**
 * The daemon's state directory (default {@code /var/lib/jheartbeat}): everything it writes at run
 * time, so two daemons with different state directories never collide.
 *
 * <ul>
 *   <li>{@code hb_generation}: the generation ({@code hg}), 16 bytes {@code %15d\n} as Heartbeat 3.0.6
 *       writes {@code /var/lib/heartbeat/hb_generation}; bumped and fsync'd at every start.</li>
 *   <li>{@code hb_uuid}: this node's 16 raw UUID bytes ({@code srcuuid}), random at first start.</li>
 *   <li>{@code control.sock}: the local control socket; {@code hb.pid}: the daemon's pid.</li>
 *   <li>{@code maintenance}: the cluster's maintenance setting ({@code hb maintenance}), written
 *       and fsync'd at every change, read at start (absent: no maintenance).</li>
 *   <li>{@code groups}: the resource groups this daemon may have started or left running, as
 *       haresources lines; written and fsync'd at start-up and at each reload, before any start, and
 *       read at the next start, so that a group dropped from haresources while the daemon was down is
 *       still released (absent: none).</li>
 * </ul>
 */
public final class StateDirectory {
    /** The default state directory. */
    public static final Path DEFAULT = Path.of("/var/lib/jheartbeat");
    private static final String GROUPS = "groups";

    private final Path dir;

    public StateDirectory(Path dir) {
        this.dir = dir;
    }

    /** The directory itself. */
    public Path path() {
        return dir;
    }

    /** Unix socket path of the control API. */
    public Path controlSocket() {
        return dir.resolve("control.sock");
    }

    /** Pid file of the running daemon. */
    public Path pidFile() {
        return dir.resolve("hb.pid");
    }

    /** The mode a state directory is created with, as the package's tmpfiles.d line: root writes, haclient enters. */
    public static final String MODE = "rwxr-x---";

    /**
     * Creates the directory if missing, with mode 0750 from the start (the umask can only narrow it)
     * and group {@code haclient} where that group exists, so that its members can reach the control
     * socket and nobody else can (packaging/src/deb/etc/tmpfiles.conf). Missing parents are created
     * with the same mode. An existing directory is left as it is.
     *
     * @throws IOException if it cannot be created, or exists and is not a directory
     */
    public void create() throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        java.nio.file.attribute.FileAttribute<?> mode = java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString(MODE));
        Files.createDirectories(dir, mode);
        try {
            java.nio.file.attribute.GroupPrincipal g = dir.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByGroupName("haclient");
            Files.getFileAttributeView(dir, java.nio.file.attribute.PosixFileAttributeView.class).setGroup(g);
        } catch (java.nio.file.attribute.UserPrincipalNotFoundException e) {
            // no haclient group: the directory stays root's, and only root uses the control socket
        }
    }

    /**
     * Who may change what the daemon reads back from here. The {@code groups} file holds haresources lines
     * that the next start releases as root, so the directory and that file are files whose contents run as
     * root ({@link RootFiles}): group or other write, or an owner other than root, is an error. A directory
     * that others may read or enter (an existing one: {@link #create} leaves it as it is) is a warning, since
     * it shows the node's state to every local user; the socket inside stays 0660 either way.
     *
     * @return the problems found, each at line 0 of the directory or file; empty when it is as {@link #MODE}
     */
    public List<ConfigDiagnostic> check() {
        List<ConfigDiagnostic> out = new ArrayList<>(RootFiles.check(dir, "the state directory"));
        out.addAll(RootFiles.check(dir.resolve(GROUPS), "the state directory's groups file"));
        if (out.isEmpty()) {
            try {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
                if (perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    out.add(ConfigDiagnostic.warning(dir, 0, "the state directory is mode "
                            + PosixFilePermissions.toString(perms) + ": every local user can read this node's state;"
                            + " chmod o-rwx " + dir));
                }
            } catch (IOException | UnsupportedOperationException e) {
                // RootFiles already said it could not check
            }
        }
        return out;
    }

    /**
     * Reads, increments, writes and fsyncs the generation. A missing file starts at
     * {@code wallSeconds + 1}, as Heartbeat 3.0.6 {@code IncrGeneration} does.
     *
     * @param wallSeconds current wall time in seconds since the epoch
     * @return the new generation, strictly greater than any earlier one from this directory
     * @throws IOException if the file cannot be read or written, or holds garbage
     */
    public long bumpGeneration(long wallSeconds) throws IOException {
        return bumpGeneration(wallSeconds, Long.MIN_VALUE);
    }

    /**
     * As {@link #bumpGeneration(long)}, but never at or below {@code above}: the generation another daemon
     * last sent as this node ({@link HeartbeatGenerationFile}).
     *
     * @param wallSeconds current wall time in seconds since the epoch
     * @param above       the new generation is greater than this; {@link Long#MIN_VALUE} for no such bound
     * @return the new generation, strictly greater than any earlier one from this directory and than {@code above}
     * @throws IOException if the file cannot be read or written, or holds garbage
     */
    public long bumpGeneration(long wallSeconds, long above) throws IOException {
        Path f = dir.resolve("hb_generation");
        long gen;
        if (Files.exists(f)) {
            String s = Files.readString(f, StandardCharsets.US_ASCII).trim();
            try {
                gen = Long.parseLong(s) + 1;
            } catch (NumberFormatException e) {
                throw new IOException(f + " does not hold a generation number: [" + s + "]");
            }
        } else {
            gen = wallSeconds + 1;
        }
        if (above != Long.MIN_VALUE && gen <= above) {
            gen = above + 1;
        }
        byte[] bytes = String.format(Locale.ROOT, "%15d\n", gen).getBytes(StandardCharsets.US_ASCII);
        Path tmp = dir.resolve("hb_generation.tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(bytes));
            ch.force(true);
        }
        Files.move(tmp, f, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return gen;
    }

    /**
     * This node's 16-byte UUID, created with a secure random source at first call.
     *
     * @throws IOException if the file cannot be read or written, or is not 16 bytes long
     */
    public byte[] nodeUuid() throws IOException {
        Path f = dir.resolve("hb_uuid");
        if (Files.exists(f)) {
            byte[] b = Files.readAllBytes(f);
            if (b.length != 16) {
                throw new IOException(f + " must hold 16 bytes, has " + b.length);
            }
            return b;
        }
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        b[6] = (byte) ((b[6] & 0x0f) | 0x40);
        b[8] = (byte) ((b[8] & 0x3f) | 0x80);
        Files.write(f, b);
        return b;
    }

    /** The maintenance setting's file. */
    public Path maintenanceFile() {
        return dir.resolve("maintenance");
    }

    /**
     * The maintenance setting kept here, or {@link org.jheartbeat.core.takeover.Maintenance#NONE} when the
     * file is missing.
     *
     * @throws IOException when the file cannot be read, or does not hold a setting (the message names the
     *                     file and line)
     */
    public org.jheartbeat.core.takeover.Maintenance readMaintenance() throws IOException {
        Path f = maintenanceFile();
        if (!Files.exists(f)) {
            return org.jheartbeat.core.takeover.Maintenance.NONE;
        }
        if (Files.size(f) > org.jheartbeat.core.takeover.Maintenance.MAX_ENCODED) {
            throw new IOException(f + ":0: longer than " + org.jheartbeat.core.takeover.Maintenance.MAX_ENCODED
                    + " bytes");
        }
        try {
            return org.jheartbeat.core.takeover.Maintenance.parse(Files.readString(f, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException e) {
            throw new IOException(f + ":" + e.getMessage().replaceFirst("^line ", "").replaceFirst(": ", ": "));
        }
    }

    /**
     * Writes the maintenance setting atomically (a temporary file fsync'd, then renamed).
     *
     * @throws IOException when it cannot be written
     */
    public void writeMaintenance(org.jheartbeat.core.takeover.Maintenance setting) throws IOException {
        Path tmp = dir.resolve("maintenance.tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(setting.encode().getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, maintenanceFile(), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** The file of the groups this daemon may run ({@link #writeGroups}). */
    public Path groupsFile() {
        return dir.resolve(GROUPS);
    }

    /**
     * The groups kept by {@link #writeGroups}, in order; none when the file is missing.
     *
     * @param nodes the cluster's nodes (a line naming another node is dropped, with a diagnostic)
     * @throws IOException when the file cannot be read, is longer than 1 MiB, or has a line that is not a
     *                     resource group (the message names the file and line)
     */
    public java.util.List<org.jheartbeat.core.config.ResourceGroupDecl> readGroups(
            java.util.Collection<org.jheartbeat.core.config.NodeName> nodes) throws IOException {
        Path f = groupsFile();
        if (!Files.exists(f)) {
            return java.util.List.of();
        }
        if (Files.size(f) > 1 << 20) {
            throw new IOException(f + ":0: longer than 1 MiB");
        }
        var r = org.jheartbeat.core.config.HaresourcesParser.parse(f, Files.readString(f, StandardCharsets.UTF_8),
                nodes);
        for (var d : r.diagnostics()) {
            if (d.isError()) {
                throw new IOException(d.toString());
            }
        }
        return r.groups();
    }

    /**
     * Writes the groups this daemon may run, one haresources line each, atomically (a temporary file
     * fsync'd, then renamed).
     *
     * @throws IOException when it cannot be written
     */
    public void writeGroups(java.util.List<org.jheartbeat.core.config.ResourceGroupDecl> groups) throws IOException {
        StringBuilder sb = new StringBuilder("# written by the jheartbeat daemon: the groups it may run\n");
        groups.forEach(g -> sb.append(g).append('\n'));
        Path tmp = dir.resolve("groups.tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, groupsFile(), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
