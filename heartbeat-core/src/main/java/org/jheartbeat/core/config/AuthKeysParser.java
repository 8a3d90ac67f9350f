package org.jheartbeat.core.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.auth.AuthKey;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;

/**
 * Reads {@code /etc/ha.d/authkeys} with Heartbeat 3.0.6's rules ({@code heartbeat/auth.c}
 * {@code parse_authfile}, authkeys(5); facts F.3 and B.3), and checks the file's owner and mode.
 * <ul>
 *   <li>leading blanks are skipped; empty lines and lines starting with {@code #} are ignored;</li>
 *   <li>a line starting with {@code a} is {@code auth N}: the index (0..15) used to sign; its key line
 *       must come <em>after</em> it, since Heartbeat picks the signing key while reading
 *       ({@code Auth Key [N] not found} otherwise);</li>
 *   <li>other lines are {@code N method [key]}: N in 0..15, method {@code crc}, {@code md5} or
 *       {@code sha1}; the key is one blank-free token, even one starting with {@code #} (not a comment
 *       there); {@code crc} must not have a key, {@code md5} and {@code sha1} must.</li>
 * </ul>
 * Errors use Heartbeat's own phrases ({@code Missing auth directive}, {@code Auth Key [N] not found},
 * {@code Invalid authnum}, {@code Invalid authtype}, {@code Auth method [x] requires a key}).
 * Never throws on bad input.
 */
public final class AuthKeysParser {
    /** The file name inside a config directory. */
    public static final String FILE_NAME = "authkeys";

    private AuthKeysParser() {
    }

    /**
     * What a parse produced.
     *
     * @param authKeys    the keys; present exactly when there is no ERROR
     * @param diagnostics errors and warnings in line order
     */
    public record Result(Optional<AuthKeys> authKeys, List<ConfigDiagnostic> diagnostics) implements Diagnosed {
        public Result {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    /**
     * Parses the text of an authkeys file.
     *
     * @param file the path to name in diagnostics (not read)
     * @param text the file's bytes decoded as ISO-8859-1, so each key byte is one char
     * @return the keys (when valid) and the diagnostics
     */
    public static Result parse(Path file, String text) {
        List<ConfigDiagnostic> diagnostics = new ArrayList<>();
        Map<Integer, AuthKey> keys = new LinkedHashMap<>();
        Map<Integer, Integer> keyLines = new LinkedHashMap<>();
        Set<Integer> badIndexes = new HashSet<>();
        String authToken = null;
        int authLine = 0;
        // Heartbeat picks the signing key while reading: a key line whose index equals the 'auth' read so far
        Integer signing = null;
        List<String> lines = ConfigText.lines(file, text, diagnostics);
        for (int i = 0; i < lines.size(); i++) {
            int line = i + 1;
            String content = lines.get(i).strip();
            if (content.isEmpty() || content.startsWith("#")) {
                continue;
            }
            String[] words = content.split("\\s+");
            if (content.startsWith("a")) {
                if (authToken != null) {
                    diagnostics.add(ConfigDiagnostic.warning(file, line,
                            "auth is set again (first on line " + authLine + "); the last one is used"));
                }
                authToken = words.length > 1 ? words[1] : "";
                authLine = line;
                continue;
            }
            Optional<Integer> index = index(words[0]);
            if (index.isEmpty()) {
                diagnostics.add(ConfigDiagnostic.error(file, line, "Invalid authnum [" + words[0]
                        + "]: expected a key index 0.." + AuthKey.MAX_INDEX));
                continue;
            }
            Optional<AuthKey> key = methodLine(file, line, index.get(), words, diagnostics);
            if (key.isPresent()) {
                Integer previous = keyLines.put(index.get(), line);
                if (previous != null) {
                    diagnostics.add(ConfigDiagnostic.warning(file, line, "key " + index.get()
                            + " is defined again (first on line " + previous + "); the last one is used"));
                }
                keys.put(index.get(), key.get());
                if (authToken != null && index(authToken).equals(index)) {
                    signing = index.get();
                }
            } else {
                badIndexes.add(index.get());
            }
        }
        Optional<Integer> authIndex = authToken == null ? Optional.empty() : index(authToken);
        if (authToken == null) {
            diagnostics.add(ConfigDiagnostic.error(file, 0, "Missing auth directive in keyfile [" + file
                    + "]: add a line 'auth N' naming the key index to sign with"));
        } else if (authIndex.isEmpty()) {
            diagnostics.add(ConfigDiagnostic.error(file, authLine, "Invalid authnum [" + authToken
                    + "] in 'auth' line: expected a key index 0.." + AuthKey.MAX_INDEX));
        } else if (signing == null && keyLines.containsKey(authIndex.get())) {
            diagnostics.add(ConfigDiagnostic.error(file, authLine, "Auth Key [" + authToken + "] not found in keyfile ["
                    + file + "]: key " + authToken + " is on line " + keyLines.get(authIndex.get()) + ", before this"
                    + " 'auth' line, and Heartbeat only finds a key that comes after it: move 'auth " + authToken
                    + "' to the top of the file"));
        } else if (signing == null && !badIndexes.contains(authIndex.get())) {
            diagnostics.add(ConfigDiagnostic.error(file, authLine, "Auth Key [" + authToken
                    + "] not found in keyfile [" + file + "]: add a line '" + authToken + " sha1 SECRET'"));
        } else if (signing != null && !signing.equals(authIndex.get())) {
            diagnostics.add(ConfigDiagnostic.warning(file, authLine, "no key " + authToken + " follows this 'auth "
                    + authToken + "' line, so Heartbeat keeps signing with key " + signing + ": put the key line"
                    + " after it, or remove the line"));
        }
        boolean ok = diagnostics.stream().noneMatch(ConfigDiagnostic::isError) && signing != null;
        return new Result(ok ? Optional.of(new AuthKeys(signing, keys)) : Optional.empty(), diagnostics);
    }

    /**
     * {@code N method [key]}: Heartbeat reads it with {@code sscanf("%d%s%s")}, so the key is the first
     * blank-free word after the method, whatever it is: {@code 1 sha1 # comment} has the key {@code #}
     * (a WARNING here), and {@code 1 crc # comment} has a key crc refuses.
     */
    private static Optional<AuthKey> methodLine(Path file, int line, int index, String[] words,
                                                List<ConfigDiagnostic> diagnostics) {
        if (words.length < 2) {
            diagnostics.add(ConfigDiagnostic.error(file, line, "key " + index + " has no method: expected '"
                    + index + " crc|md5|sha1 [KEY]'"));
            return Optional.empty();
        }
        Optional<AuthMethod> method = AuthMethod.fromName(words[1]);
        if (method.isEmpty()) {
            diagnostics.add(ConfigDiagnostic.error(file, line, "Invalid authtype [" + words[1]
                    + "]: expected crc, md5 or sha1"));
            return Optional.empty();
        }
        AuthMethod m = method.get();
        boolean hasKey = words.length > 2;
        boolean hashKey = hasKey && words[2].startsWith("#");
        if (m.needsKey() && !hasKey) {
            diagnostics.add(ConfigDiagnostic.error(file, line, "Auth method [" + m.wireName()
                    + "] requires a key: '" + index + " " + m.wireName() + " SECRET'"));
            return Optional.empty();
        }
        if (!m.needsKey() && hasKey) {
            diagnostics.add(ConfigDiagnostic.error(file, line, "Auth method [crc] doesn't use a key"
                    + (hashKey ? ": a '#' after the method is not a comment here, Heartbeat reads it as a key and"
                    + " drops this line, so key " + index + " is not found; remove the '#...' text"
                    : ": remove the key (not shown: it is a secret), or use sha1 to authenticate with it")));
            return Optional.empty();
        }
        if (hashKey) {
            diagnostics.add(ConfigDiagnostic.warning(file, line, "the key of index " + index + " starts with '#': a"
                    + " '#' after the method is not a comment in authkeys, Heartbeat uses the word as the key;"
                    + " if a comment was meant, put it on a line of its own and write the real key here"));
        }
        if (words.length > 3 && !words[3].startsWith("#") && !hashKey) {
            diagnostics.add(ConfigDiagnostic.warning(file, line,
                    "the key is one token; text after it is ignored (as Heartbeat)"));
        }
        byte[] key = hasKey ? words[2].getBytes(StandardCharsets.ISO_8859_1) : new byte[0];
        strength(file, line, index, m, hasKey ? words[2] : "", diagnostics);
        return Optional.of(new AuthKey(index, m, key));
    }

    /**
     * The key shipped in {@code authkeys.example}: a pair that kept it would accept messages from anyone who has
     * read the example.
     */
    public static final String EXAMPLE_KEY = "change-this-to-a-long-random-secret";
    /** Keys shorter than this, in bytes, are warned about (a guessable secret is no secret). */
    public static final int MIN_KEY_BYTES = 16;

    /**
     * Weak keys: the example key is refused; {@code crc} (no secret at all) and short keys are warned about.
     * Heartbeat 3.0.6 takes all three silently.
     */
    private static void strength(Path file, int line, int index, AuthMethod m, String key,
                                 List<ConfigDiagnostic> diagnostics) {
        String generate = "generate a key with: openssl rand -hex 32";
        if (!m.needsKey()) {
            diagnostics.add(ConfigDiagnostic.warning(file, line, "key " + index + " is crc, which authenticates"
                    + " nothing: anyone who can send to a heartbeat link can forge messages (standby, hand-overs);"
                    + " crc is refused on network media unless jheartbeat.yaml authkeys: crc_links: lists them;"
                    + " use '" + index + " sha1 KEY' and " + generate));
        } else if (key.equals(EXAMPLE_KEY)) {
            diagnostics.add(ConfigDiagnostic.error(file, line, "key " + index + " is the example key of"
                    + " authkeys.example, which anyone can read; " + generate + " and write it on both nodes"));
        } else if (key.length() < MIN_KEY_BYTES) {
            diagnostics.add(ConfigDiagnostic.warning(file, line, "key " + index + " is " + key.length()
                    + " characters long, short enough to be guessed; use at least " + MIN_KEY_BYTES + ": " + generate));
        }
    }

    private static Optional<Integer> index(String token) {
        if (!token.matches("[0-9]{1,2}")) {
            return Optional.empty();
        }
        int n = Integer.parseInt(token);
        return n <= AuthKey.MAX_INDEX ? Optional.of(n) : Optional.empty();
    }

    /**
     * Checks that authkeys is safe to hold secrets: owned by root (uid 0) and with no group or other
     * permission bits (mode 600 or stricter). Heartbeat 3.0.6 only refuses group/other <em>read</em>
     * bits ({@code Bad permissions on keyfile}); jheartbeat refuses any group/other bit and a non-root
     * owner. Used by both {@code hb config check} and daemon start.
     *
     * @param file the authkeys path
     * @return empty if safe; else one ERROR on line 0 with the chmod/chown fix. A file system without
     *         POSIX attributes gives a WARNING that the check could not be made.
     */
    public static List<ConfigDiagnostic> checkSecurity(Path file) {
        PosixFileAttributes attributes;
        int uid;
        try {
            attributes = Files.readAttributes(file, PosixFileAttributes.class);
            uid = ownerUid(file, attributes);
        } catch (UnsupportedOperationException e) {
            return List.of(ConfigDiagnostic.warning(file, 0,
                    "cannot check owner and mode of authkeys on this file system"));
        } catch (IOException e) {
            return List.of(ConfigDiagnostic.error(file, 0, "cannot check owner and mode of authkeys: " + e));
        }
        Set<PosixFilePermission> groupOrOther = EnumSet.of(PosixFilePermission.GROUP_READ,
                PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
                PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
        boolean modeBad = attributes.permissions().stream().anyMatch(groupOrOther::contains);
        if (!modeBad && uid == 0) {
            return List.of();
        }
        String state = "authkeys is mode " + octal(attributes.permissions()) + (uid == 0 ? "" : " owned by uid " + uid);
        return List.of(ConfigDiagnostic.error(file, 0, state
                + "; it must be 600 and owned by root: chmod 600 " + file + "; chown root " + file));
    }

    private static int ownerUid(Path file, PosixFileAttributes attributes) throws IOException {
        try {
            return (Integer) Files.getAttribute(file, "unix:uid");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return attributes.owner().getName().equals("root") ? 0 : -1;
        }
    }

    /** Three octal digits, e.g. {@code 644}. */
    static String octal(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission p : permissions) {
            mode |= 0400 >> p.ordinal();
        }
        return String.format("%03o", mode);
    }
}
