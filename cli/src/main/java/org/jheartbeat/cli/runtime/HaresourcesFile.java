package org.jheartbeat.cli.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.HaCfParser;
import org.jheartbeat.core.config.HaresourcesDocument;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;

/**
 * The haresources file of a config directory, for {@code hb resources}: reading it as a
 * {@link HaresourcesDocument}, checking a text as the daemon would (parse against ha.cf's nodes, then
 * {@link HostChecks#checkResources}), and replacing it atomically.
 *
 * @param configDir the config directory, e.g. {@code /etc/ha.d}
 * @param initDir   where init scripts live, normally {@code /etc/init.d}
 */
public record HaresourcesFile(Path configDir, Path initDir) {
    /** Largest file edited (1 MiB, as the config loader reads). */
    private static final long MAX_BYTES = 1 << 20;

    /** The haresources path. */
    public Path path() {
        return configDir.resolve(HaresourcesParser.FILE_NAME);
    }

    /**
     * Reads the file. A missing file is an empty document if {@code missingIsEmpty} (for {@code add}).
     *
     * @throws UserException exit 2 if the file is missing, too large or not UTF-8 (it could not be
     *                       rewritten byte-exactly); exit 1 on an I/O error
     */
    public HaresourcesDocument read(boolean missingIsEmpty) throws UserException {
        return HaresourcesDocument.parse(readText(missingIsEmpty));
    }

    /** The file's text as is (CRLF kept); errors as {@link #read(boolean)}. */
    public String readText(boolean missingIsEmpty) throws UserException {
        Path file = path();
        if (!Files.isDirectory(configDir)) {
            throw new UserException(ExitCodes.CONFIG, configDir + ": config directory does not exist; pass --config-dir DIR");
        }
        if (!Files.exists(file)) {
            if (missingIsEmpty) {
                return "";
            }
            throw new UserException(ExitCodes.CONFIG, file + ": not found (hb resources add creates it)");
        }
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES) {
                throw new UserException(ExitCodes.CONFIG, file + ": not a regular file of at most " + MAX_BYTES + " bytes");
            }
            byte[] bytes = Files.readAllBytes(file);
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new UserException(ExitCodes.CONFIG, file + ": not valid UTF-8; it cannot be edited byte-exactly");
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "cannot read " + file + ": " + e);
        }
    }

    /**
     * The nodes of ha.cf.
     *
     * @throws UserException exit 2 if ha.cf is missing or names no node: the preferred nodes could not be checked
     */
    public List<NodeName> nodes() throws UserException {
        Path haCf = configDir.resolve(HaCfParser.FILE_NAME);
        List<NodeName> nodes;
        try {
            nodes = HaCfParser.parse(haCf, Files.readString(haCf)).haCf().nodeNames();
        } catch (IOException | RuntimeException e) {
            throw new UserException(ExitCodes.CONFIG, haCf + ":0: cannot read the nodes of ha.cf (" + e.getMessage()
                    + "); haresources names them");
        }
        if (nodes.isEmpty()) {
            throw new UserException(ExitCodes.CONFIG, haCf + ":0: ha.cf has no 'node' lines; haresources names them");
        }
        return nodes;
    }

    /** Every problem of {@code text} as haresources of this directory: syntax, nodes, scripts, addresses. */
    public List<ConfigDiagnostic> check(String text, List<NodeName> nodes) {
        HaresourcesParser.Result parsed = HaresourcesParser.parse(path(), text, nodes);
        List<ConfigDiagnostic> out = new ArrayList<>(parsed.diagnostics());
        out.addAll(new HostChecks(initDir).checkResources(configDir, parsed.groups()));
        return out;
    }

    /**
     * Replaces the file: writes {@code haresources.tmp} in the same directory with the old file's mode
     * (0644 for a new file), fsyncs it, keeps the old file as {@code haresources.bak} (a hard link, or a
     * copy where links are not supported), renames the temporary file over the old one and fsyncs the
     * directory. A symlinked haresources is followed: its target is replaced.
     *
     * @throws UserException exit 1 on an I/O error (the old file is then unchanged)
     */
    public void write(String text) throws UserException {
        Path file = path();
        Path tmp = null;
        try {
            Path target = Files.exists(file) ? file.toRealPath() : file;
            Path dir = target.toAbsolutePath().getParent();
            tmp = dir.resolve(target.getFileName() + ".tmp");
            Set<PosixFilePermission> mode = Files.exists(target) ? Files.getPosixFilePermissions(target)
                    : PosixFilePermissions.fromString("rw-r--r--");
            Files.deleteIfExists(tmp);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.setPosixFilePermissions(tmp, mode);
            if (Files.exists(target)) {
                Path bak = dir.resolve(target.getFileName() + ".bak");
                Files.deleteIfExists(bak);
                try {
                    Files.createLink(bak, target);
                } catch (IOException | UnsupportedOperationException e) {
                    Files.copy(target, bak, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            fsyncDirectory(dir);
        } catch (IOException e) {
            try {
                if (tmp != null) {
                    Files.deleteIfExists(tmp);
                }
            } catch (IOException ignored) {
                // the original message matters more
            }
            throw new UserException(ExitCodes.FAILURE, "cannot write " + file + ": " + e + "; it is unchanged");
        }
    }

    private static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // not every file system lets a directory be synced; the rename is done either way
        }
    }
}
