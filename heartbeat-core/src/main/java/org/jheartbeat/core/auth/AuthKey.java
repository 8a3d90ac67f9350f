package org.jheartbeat.core.auth;

import java.util.Arrays;
import java.util.Objects;

/**
 * One method line of an authkeys file: {@code <index> <method> [<key>]}.
 *
 * @param index  0..15 (Heartbeat's MAXAUTH is 16)
 * @param method the HMAC or CRC method
 * @param key    the raw key bytes (the ASCII key token); empty for {@code crc}
 */
public record AuthKey(int index, AuthMethod method, byte[] key) {
    /** Highest valid key index, inclusive (Heartbeat 3.0.6 {@code MAXAUTH} - 1). */
    public static final int MAX_INDEX = 15;

    public AuthKey {
        Objects.requireNonNull(method, "method");
        if (index < 0 || index > MAX_INDEX) {
            throw new IllegalArgumentException("auth index out of range 0..15: " + index);
        }
        key = key == null ? new byte[0] : key.clone();
    }

    @Override
    public byte[] key() {
        return key.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuthKey k && k.index == index && k.method == method && Arrays.equals(k.key, key);
    }

    @Override
    public int hashCode() {
        return Objects.hash(index, method, Arrays.hashCode(key));
    }

    @Override
    public String toString() {
        return "AuthKey[" + index + " " + method.wireName() + (key.length > 0 ? " <key hidden>" : "") + "]";
    }
}
