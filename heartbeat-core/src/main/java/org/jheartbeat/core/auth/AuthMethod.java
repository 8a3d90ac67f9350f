package org.jheartbeat.core.auth;

import java.util.Locale;
import java.util.Optional;

/**
 * The authentication methods of an authkeys file, spelled as in Heartbeat 3.0.6 {@code authkeys(5)}.
 * {@code crc} takes no key; {@code md5} and {@code sha1} require one (Heartbeat {@code auth.c}).
 */
public enum AuthMethod {
    CRC("crc", false),
    MD5("md5", true),
    SHA1("sha1", true);

    private final String wireName;
    private final boolean needsKey;

    AuthMethod(String wireName, boolean needsKey) {
        this.wireName = wireName;
        this.needsKey = needsKey;
    }

    /** The spelling used in authkeys ({@code crc}, {@code md5}, {@code sha1}). */
    public String wireName() {
        return wireName;
    }

    /** Whether an authkeys line for this method must carry a key. */
    public boolean needsKey() {
        return needsKey;
    }

    /** Looks a method up by its authkeys spelling, case-insensitively; empty if unknown. */
    public static Optional<AuthMethod> fromName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (AuthMethod m : values()) {
            if (m.wireName.equals(n)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
