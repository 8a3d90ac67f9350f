package org.jheartbeat.core.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes a config directory ({@code ha.cf}, {@code authkeys}, {@code haresources}) for tests. The
 * default is a valid two-node cluster that loads with no diagnostic at all:
 * <pre>
 * ha.cf:       keepalive 500ms / deadtime 3 / warntime 2 / initdead 10 / udpport 694 /
 *              ucast eth1 198.18.1.2 / auto_failback on / node node1 / node node2 / crm no
 * authkeys:    auth 1 / 1 sha1 testsecret-0123456        (mode 600)
 * haresources: node1 198.18.0.100/24/eth0 labweb
 * </pre>
 * Fluent methods replace a file's text, drop a file, or change the authkeys mode/owner, so tests
 * (core's loader tests, the CLI's {@code hb config check} tests) can build broken directories with
 * one mistake each. Line numbers of the default texts are stable: tests may rely on them.
 */
public final class ConfigDirBuilder {
    /** The default ha.cf, with {@code ucast} on line 6. */
    public static final String HA_CF = """
            keepalive 500ms
            deadtime 3
            warntime 2
            initdead 10
            udpport 694
            ucast eth1 198.18.1.2
            auto_failback on
            node node1
            node node2
            crm no
            """;
    /** The default authkeys. */
    public static final String AUTHKEYS = """
            auth 1
            1 sha1 testsecret-0123456
            """;
    /** The default haresources. */
    public static final String HARESOURCES = """
            node1 198.18.0.100/24/eth0 labweb
            """;

    private String haCf = HA_CF;
    private String authkeys = AUTHKEYS;
    private String haresources = HARESOURCES;
    private String authkeysMode = "rw-------";
    private Optional<String> authkeysOwner = Optional.empty();

    /** A builder for the valid default directory. */
    public static ConfigDirBuilder validTwoNode() {
        return new ConfigDirBuilder();
    }

    /**
     * The valid default directory with {@code ucast lo 127.0.0.2} on line 6 instead of {@code ucast eth1 ...}: a
     * medium any machine can start, for the checks made on the machine itself ({@code hb config check}, the
     * daemon's start), which refuse an interface this machine does not have.
     */
    public static ConfigDirBuilder validHere() {
        return new ConfigDirBuilder().haCfReplace("ucast eth1 198.18.1.2", "ucast lo 127.0.0.2");
    }

    /** Replaces the whole ha.cf text; {@code null} means "do not write ha.cf". */
    public ConfigDirBuilder haCf(String text) {
        this.haCf = text;
        return this;
    }

    /** Replaces the first occurrence of {@code from} in ha.cf by {@code to}; fails if it is absent. */
    public ConfigDirBuilder haCfReplace(String from, String to) {
        this.haCf = replace(haCf, from, to);
        return this;
    }

    /** Appends text (e.g. {@code "serial /dev/ttyS0\n"}) to ha.cf; the default ha.cf has 10 lines. */
    public ConfigDirBuilder haCfAppend(String text) {
        this.haCf = Objects.requireNonNull(haCf, "the file was removed") + text;
        return this;
    }

    /** Uses {@code bcast eth1} instead of the ucast medium. */
    public ConfigDirBuilder bcast() {
        return haCfReplace("ucast eth1 198.18.1.2", "bcast eth1");
    }

    /** Replaces the whole authkeys text; {@code null} means "do not write authkeys". */
    public ConfigDirBuilder authkeys(String text) {
        this.authkeys = text;
        return this;
    }

    /** Replaces the whole haresources text; {@code null} means "do not write haresources". */
    public ConfigDirBuilder haresources(String text) {
        this.haresources = text;
        return this;
    }

    /** Replaces the first occurrence of {@code from} in haresources by {@code to}. */
    public ConfigDirBuilder haresourcesReplace(String from, String to) {
        this.haresources = replace(haresources, from, to);
        return this;
    }

    /**
     * Sets the authkeys mode.
     *
     * @param mode three octal digits, e.g. {@code "644"}, or a {@code rwxr-x---} string
     */
    public ConfigDirBuilder authkeysMode(String mode) {
        this.authkeysMode = mode.matches("[0-7]{3}") ? symbolic(mode) : mode;
        return this;
    }

    /** Makes authkeys owned by this user (e.g. {@code nobody}); needs root. Default: the current user. */
    public ConfigDirBuilder authkeysOwner(String user) {
        this.authkeysOwner = Optional.of(user);
        return this;
    }

    /**
     * Writes the files into {@code dir} (created if needed), replacing files already there and
     * deleting those set to {@code null}.
     *
     * @return {@code dir}
     * @throws UncheckedIOException if writing fails
     */
    public Path writeTo(Path dir) {
        try {
            Files.createDirectories(dir);
            write(dir.resolve("ha.cf"), haCf);
            write(dir.resolve("haresources"), haresources);
            Path keys = dir.resolve("authkeys");
            write(keys, authkeys);
            if (authkeys != null) {
                Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString(authkeysMode));
                if (authkeysOwner.isPresent()) {
                    Files.setOwner(keys, keys.getFileSystem().getUserPrincipalLookupService()
                            .lookupPrincipalByName(authkeysOwner.get()));
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) throws IOException {
        if (text == null) {
            Files.deleteIfExists(file);
        } else {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
    }

    private static String replace(String text, String from, String to) {
        Objects.requireNonNull(text, "the file was removed");
        if (!text.contains(from)) {
            throw new IllegalArgumentException("[" + from + "] not found in:\n" + text);
        }
        return text.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
    }

    private static String symbolic(String octal) {
        StringBuilder s = new StringBuilder();
        for (char c : octal.toCharArray()) {
            int bits = c - '0';
            s.append((bits & 4) != 0 ? 'r' : '-').append((bits & 2) != 0 ? 'w' : '-').append((bits & 1) != 0 ? 'x' : '-');
        }
        return s.toString();
    }
}
