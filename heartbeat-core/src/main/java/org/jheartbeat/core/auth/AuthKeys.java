package org.jheartbeat.core.auth;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The contents of an authkeys file: the index used to sign outgoing messages ({@code auth N}) and
 * every defined key. Incoming messages may use any defined index (key rollover), as Heartbeat 3.0.6
 * {@code cl_netstring.c is_auth_netstring} accepts.
 *
 * @param signingIndex the index named by the {@code auth} line; always present in {@code keys}
 * @param keys         every defined key by index
 */
public record AuthKeys(int signingIndex, Map<Integer, AuthKey> keys) {
    public AuthKeys {
        keys = Map.copyOf(new TreeMap<>(keys));
        if (!keys.containsKey(signingIndex)) {
            throw new IllegalArgumentException("auth " + signingIndex + " names a key that is not defined");
        }
    }

    /** A one-key set, handy for tests and labs: {@code auth i} + {@code i method key}. */
    public static AuthKeys single(int index, AuthMethod method, byte[] key) {
        return new AuthKeys(index, Map.of(index, new AuthKey(index, method, key)));
    }

    /** The key used to sign outgoing messages. */
    public AuthKey signingKey() {
        return keys.get(signingIndex);
    }

    /** The key defined at {@code index}, if any. */
    public Optional<AuthKey> key(int index) {
        return Optional.ofNullable(keys.get(index));
    }
}
