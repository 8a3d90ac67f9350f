package org.jheartbeat.cli.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads {@code metrics: token_file:}: the bearer token a scrape must send. The file holds one line (Prometheus's
 * {@code authorization: credentials_file:} reads the same file format), at least {@link #MIN_LENGTH} visible
 * ASCII characters; like authkeys it must not be readable or writable by group or others, since whoever reads
 * it can scrape and whoever writes it chooses who can.
 */
public final class MetricsToken {
    /** The shortest token accepted, in characters ({@code openssl rand -hex 16} gives 32). */
    public static final int MIN_LENGTH = 16;
    private static final Set<PosixFilePermission> GROUP_OR_OTHER = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private MetricsToken() {
    }

    /** Why a token file cannot be used: one line saying what is wrong and what to do. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /**
     * Reads and checks the token file.
     *
     * @param file the {@code token_file:} path
     * @return the token
     * @throws Refused when the file is missing, unreadable, readable or writable by group or others, or holds no
     *                 usable token
     */
    public static String read(Path file) throws Refused {
        try {
            PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                throw new Refused(file + ": is not a regular file; write the token into a plain file of mode 0600");
            }
            Set<PosixFilePermission> wide = EnumSet.copyOf(GROUP_OR_OTHER);
            wide.retainAll(a.permissions());
            if (!wide.isEmpty()) {
                throw new Refused(file + ": is mode " + PosixFilePermissions.toString(a.permissions())
                        + ", readable or writable by others than its owner; run chmod 600 " + file);
            }
            String text = Files.readString(file, StandardCharsets.US_ASCII);
            String token = text.lines().findFirst().orElse("").strip();
            if (token.length() < MIN_LENGTH || !token.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
                throw new Refused(file + ": the token must be one line of at least " + MIN_LENGTH + " visible ASCII"
                        + " characters without blanks; write one with: openssl rand -hex 32 > " + file);
            }
            return token;
        } catch (java.nio.file.NoSuchFileException e) {
            throw new Refused(file + ": does not exist; write a token with: openssl rand -hex 32 > " + file
                    + " && chmod 600 " + file);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new Refused(file + ": is not ASCII text; write the token with: openssl rand -hex 32 > " + file);
        } catch (IOException e) {
            throw new Refused(file + ": cannot be read (" + e.getMessage() + "); check its owner and mode");
        }
    }
}
