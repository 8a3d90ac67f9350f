package org.jheartbeat.cli.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * The console's password file ({@code /etc/ha.d/web-users}, mode 0600, root's): one line per user,
 * {@code NAME:pbkdf2-sha256:ITERATIONS:SALT:HASH} with salt and hash in base64, the hash the JDK's
 * {@code PBKDF2WithHmacSHA256} of the password (OWASP's recommendation for PBKDF2-SHA256 is 600,000 iterations).
 * The file holds no roles: what a user may do comes from the Unix account of the same name at each login.
 */
public final class WebUsers {
    /** Iterations for a new hash. */
    static final int ITERATIONS = 600_000;
    private static final String SCHEME = "pbkdf2-sha256";
    /** A user name as {@code useradd} accepts it: what the groups are looked up by. */
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_-]{0,31}");
    /** A valid hash of no password, compared against when the user is unknown, so both cases cost the same. */
    private static final String DUMMY = SCHEME + ":" + ITERATIONS + ":AAAAAAAAAAAAAAAAAAAAAA==:"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

    private WebUsers() {
    }

    /** Whether {@code name} may be a user name (a Unix account name). */
    public static boolean validName(String name) {
        return NAME.matcher(name).matches();
    }

    /**
     * Whether {@code password} is {@code user}'s in {@code file}. An unknown user, a missing file or a malformed
     * line: false, after the same work as a real check.
     */
    public static boolean verify(Path file, String user, char[] password) {
        String entry = DUMMY;
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.startsWith(user + ":")) {
                    entry = line.substring(user.length() + 1);
                }
            }
        } catch (IOException e) {
            entry = DUMMY;
        }
        String[] f = entry.split(":");
        try {
            if (f.length != 4 || !f[0].equals(SCHEME)) {
                f = DUMMY.split(":");
            }
            byte[] expected = Base64.getDecoder().decode(f[3]);
            byte[] got = hash(password, Base64.getDecoder().decode(f[2]), Integer.parseInt(f[1]), expected.length * 8);
            return entry != DUMMY && MessageDigest.isEqual(expected, got);
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * Adds {@code user} or replaces its password: the file is rewritten through a temporary file of mode 0600 and
     * renamed into place.
     *
     * @throws IOException when the file cannot be read or written
     */
    public static void put(Path file, String user, char[] password, SecureRandom random) throws IOException {
        byte[] salt = new byte[16];
        random.nextBytes(salt);
        String line;
        try {
            line = user + ":" + SCHEME + ":" + ITERATIONS + ":" + Base64.getEncoder().encodeToString(salt) + ":"
                    + Base64.getEncoder().encodeToString(hash(password, salt, ITERATIONS, 256));
        } catch (GeneralSecurityException e) {
            throw new IOException("PBKDF2WithHmacSHA256 is not available in this JDK: " + e.getMessage(), e);
        }
        List<String> lines = new ArrayList<>();
        if (Files.exists(file)) {
            for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!l.startsWith(user + ":")) {
                    lines.add(l);
                }
            }
        }
        lines.add(line);
        Path tmp = file.resolveSibling(file.getFileName() + ".new");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.write(tmp, lines, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The users in {@code file}, in file order; none when it does not exist. */
    public static List<String> names(Path file) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> l.contains(":"))
                .map(l -> l.substring(0, l.indexOf(':'))).toList();
    }

    private static byte[] hash(char[] password, byte[] salt, int iterations, int bits) throws GeneralSecurityException {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, bits);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } finally {
            spec.clearPassword();
        }
    }

    /** The part of {@code name}'s entry that is not secret, for error messages: whether it exists. */
    static Optional<String> describe(Path file, String name) throws IOException {
        return names(file).contains(name) ? Optional.of(name) : Optional.empty();
    }
}
