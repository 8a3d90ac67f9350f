package org.jheartbeat.core.auth;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The keys this node authenticates with: the contents of an authkeys file (the index that signs outgoing
 * messages, {@code auth N}, and every defined key) and the key roll-over window jheartbeat.yaml may open.
 *
 * <p>A received message must be signed with the {@code auth} key. Heartbeat 3.0.6 accepts any index the file
 * defines ({@code cl_netstring.c is_auth_netstring}), which is what lets its key roll-over work (a new key is
 * added on both nodes, then each switches {@code auth}), but it also means a forgotten weak line such as
 * {@code 2 crc} lets anyone on the link forge messages. Here the other keys are accepted only while a roll-over
 * window is open ({@code authkeys: rollover_until:} in jheartbeat.yaml), so the roll-over still works and a
 * forgotten key is harmless outside it.
 *
 * @param signingIndex  the index named by the {@code auth} line; always present in {@code keys}
 * @param keys          every defined key by index
 * @param rolloverUntil until when every defined key is accepted; empty: only the signing key
 */
public record AuthKeys(int signingIndex, Map<Integer, AuthKey> keys, Optional<Instant> rolloverUntil) {
    public AuthKeys {
        keys = Map.copyOf(new TreeMap<>(keys));
        if (!keys.containsKey(signingIndex)) {
            throw new IllegalArgumentException("auth " + signingIndex + " names a key that is not defined");
        }
        Objects.requireNonNull(rolloverUntil, "rolloverUntil");
    }

    /** The keys of an authkeys file, without a roll-over window. */
    public AuthKeys(int signingIndex, Map<Integer, AuthKey> keys) {
        this(signingIndex, keys, Optional.empty());
    }

    /** A one-key set, handy for tests and labs: {@code auth i} + {@code i method key}. */
    public static AuthKeys single(int index, AuthMethod method, byte[] key) {
        return new AuthKeys(index, Map.of(index, new AuthKey(index, method, key)));
    }

    /** The same keys with this roll-over window (empty: none). */
    public AuthKeys withRollover(Optional<Instant> until) {
        return new AuthKeys(signingIndex, keys, until);
    }

    /** The key used to sign outgoing messages. */
    public AuthKey signingKey() {
        return keys.get(signingIndex);
    }

    /** The key defined at {@code index}, if any. */
    public Optional<AuthKey> key(int index) {
        return Optional.ofNullable(keys.get(index));
    }

    /** Whether a key roll-over window is open at {@code now}: every defined key is accepted then. */
    public boolean rollingOver(Instant now) {
        return rolloverUntil.isPresent() && now.isBefore(rolloverUntil.get());
    }

    /**
     * The key a message signed with {@code index} is checked with at {@code now}: the signing key, or during a
     * roll-over window any defined key.
     */
    public Optional<AuthKey> acceptedKey(int index, Instant now) {
        return index == signingIndex || rollingOver(now) ? key(index) : Optional.empty();
    }
}
