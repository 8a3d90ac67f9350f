package org.jheartbeat.core.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Heartbeat 3.0.6's own generation file on this machine ({@code /var/lib/heartbeat/hb_generation}, 16 bytes
 * {@code %15d\n}, bumped at each of its starts), which jheartbeat continues so that a node moving between
 * Heartbeat and jheartbeat (docs/migration.md) never sends a lower generation than its last daemon did.
 *
 * <p>Why: a peer drops every frame whose generation is below the one it tracks for that node as a replay
 * (Heartbeat's {@code should_drop_message}, our {@link org.jheartbeat.core.membership.SequenceTracker}), and it
 * keeps tracking across that node's death. Each daemon counts in its own file, so without this a node
 * going back to Heartbeat after jheartbeat ran (or to jheartbeat after Heartbeat ran more often than seconds
 * passed) started below its previous run: its peer ignored it for good, never answered its resource request
 * and kept its groups (seen in the lab: 144 frames "from before" a minute, the returning node stuck in
 * {@code up}).
 *
 * <p>So at each start the daemon's generation is above both files', and is written to both. Heartbeat's file
 * is only ever rewritten when it exists (Heartbeat ran on this machine); a machine without it is not touched.
 */
public final class HeartbeatGenerationFile {
    /** Where Debian's heartbeat package keeps it. */
    public static final Path DEFAULT = Path.of("/var/lib/heartbeat/hb_generation");

    private HeartbeatGenerationFile() {
    }

    /**
     * Bumps the generation in {@code state} above Heartbeat's last one in {@code heartbeatFile}, and when that
     * file exists writes the new generation into it too (atomically, keeping its owner and mode), so that a
     * Heartbeat started here later continues above it.
     *
     * @param wallSeconds current wall time in seconds since the epoch (the first generation of a new state
     *                    directory without a Heartbeat file is this + 1, as Heartbeat's {@code IncrGeneration})
     * @return the new generation
     * @throws IOException if either file cannot be read or written, or holds no generation number (the
     *                     message names the file)
     */
    public static long bump(StateDirectory state, Path heartbeatFile, long wallSeconds) throws IOException {
        OptionalLong theirs = read(heartbeatFile);
        long gen = state.bumpGeneration(wallSeconds, theirs.orElse(Long.MIN_VALUE));
        if (theirs.isPresent()) {
            write(heartbeatFile, gen);
        }
        return gen;
    }

    /**
     * The generation Heartbeat last wrote, or empty when there is no such file.
     *
     * @throws IOException if it cannot be read or holds no number
     */
    static OptionalLong read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return OptionalLong.empty();
        }
        String s = Files.readString(file, StandardCharsets.US_ASCII).trim();
        try {
            return OptionalLong.of(Long.parseLong(s));
        } catch (NumberFormatException e) {
            throw new IOException(file + ":1: Heartbeat's generation file does not hold a number: [" + s
                    + "]; write the last \"Heartbeat generation:\" of its ha-log in it, or remove it");
        }
    }

    private static void write(Path file, long gen) throws IOException {
        PosixFileAttributes was = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        Path tmp = file.resolveSibling(file.getFileName() + ".jheartbeat-tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(String.format(Locale.ROOT, "%15d\n", gen).getBytes(StandardCharsets.US_ASCII)));
            ch.force(true);
        }
        PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        view.setPermissions(was.permissions());
        try {
            view.setOwner(was.owner());
            view.setGroup(was.group());
        } catch (IOException e) {
            // not root (tests): the file stays ours, which Heartbeat, running as root, reads all the same
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
