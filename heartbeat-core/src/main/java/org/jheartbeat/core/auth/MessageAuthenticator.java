package org.jheartbeat.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs and verifies Heartbeat authentication strings of the form {@code "<index> <lowercase hex>"},
 * used both for the netstring trailer (over the bytes {@code ###\n} .. {@code %%%\n}) and for the
 * inner {@code auth=} field (over the classic rendering). Semantics as Heartbeat 3.0.6 {@code
 * heartbeat/heartbeat.c hb_compute_authentication} and cluster-glue {@code cl_netstring.c
 * is_auth_netstring}: outgoing data is signed with the {@code auth N} key. Incoming data must name the
 * {@code auth N} index too, unlike Heartbeat, which checks it with whatever locally defined index it names;
 * other defined indexes are accepted only during a key roll-over window ({@link AuthKeys#acceptedKey}).
 *
 * <p>Digests: {@code sha1} is HMAC-SHA1 (40 hex digits), {@code md5} is HMAC-MD5 (32 hex digits),
 * both RFC 2104 with the raw key bytes (keys over 64 bytes are hashed first, as javax.crypto does);
 * {@code crc} is {@link HeartbeatCrc32} printed with C's {@code %lx}, i.e. 1 to 8 lowercase hex
 * digits without zero padding, and ignores the key.
 *
 * <p>Immutable and thread-safe: a fresh {@link Mac} is created per call.
 */
public final class MessageAuthenticator {
    private static final HexFormat HEX = HexFormat.of();
    /** Longest index text accepted by {@link #verify}; indexes are 0..15. */
    private static final int MAX_INDEX_DIGITS = 2;

    private final AuthKeys keys;
    private final Clock clock;

    /**
     * @param keys the local authkeys; the signing key is {@link AuthKeys#signingKey()}
     * @throws NullPointerException if {@code keys} is null
     */
    public MessageAuthenticator(AuthKeys keys) {
        this(keys, org.jheartbeat.core.time.WallClocks.system());
    }

    /**
     * @param keys  the local authkeys; the signing key is {@link AuthKeys#signingKey()}
     * @param clock wall time, read per message while {@code keys} has a roll-over window
     * @throws NullPointerException if an argument is null
     */
    public MessageAuthenticator(AuthKeys keys, Clock clock) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The authkeys this authenticator signs and verifies with. */
    public AuthKeys keys() {
        return keys;
    }

    /**
     * Signs {@code data} with the signing key.
     *
     * @param data the exact bytes covered by the signature (not copied, not modified)
     * @return {@code "<signingIndex> <hex>"}, e.g. {@code "1 de869ce9…"} (sha1) or {@code "1 400d7ab"}
     *     (crc, unpadded)
     */
    public String sign(byte[] data) {
        AuthKey key = keys.signingKey();
        return key.index() + " " + digestHex(key, data);
    }

    /**
     * Checks an authentication string against {@code data}. The string is parsed as {@code "%d %s"}:
     * one to two decimal digits, exactly one space, a non-empty digest token, nothing else. The digest
     * is recomputed with the key of that index and compared exactly (case-sensitive, so upper-case
     * hex fails, as in Heartbeat's {@code strcmp}).
     *
     * @param authString the received {@code "<index> <hex>"} string; null is treated as malformed
     * @param data       the bytes the sender signed
     * @return true only if the index is accepted ({@link AuthKeys#acceptedKey}) and the digest matches; false
     *     for another index, a malformed string or another digest (never throws for any string)
     */
    public boolean verify(String authString, byte[] data) {
        Optional<AuthKey> key = parseIndex(authString).flatMap(i -> keys.acceptedKey(i, instant()));
        if (key.isEmpty()) {
            return false;
        }
        String received = authString.substring(authString.indexOf(' ') + 1);
        String expected = digestHex(key.get(), data);
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.ISO_8859_1),
                received.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Why {@link #verify} refuses {@code authString}, for the bad-packet log: one phrase, no key material.
     *
     * @return e.g. {@code "signed with key 2, but only key 1 (auth 1) is accepted outside a key roll-over"}
     */
    public String refusal(String authString) {
        Optional<Integer> index = parseIndex(authString);
        if (index.isEmpty()) {
            return "malformed authentication string";
        }
        int i = index.get();
        if (keys.key(i).isEmpty()) {
            return "signed with key " + i + ", which this node's authkeys does not define";
        }
        if (keys.acceptedKey(i, instant()).isEmpty()) {
            return "signed with key " + i + ", but only key " + keys.signingIndex() + " (auth " + keys.signingIndex()
                    + ") is accepted outside a key roll-over (jheartbeat.yaml authkeys: rollover_until:)";
        }
        return "does not verify with key " + i + " of the local authkeys";
    }

    private Instant instant() {
        return keys.rolloverUntil().isEmpty() ? Instant.EPOCH : clock.instant();
    }

    private static Optional<Integer> parseIndex(String authString) {
        if (authString == null) {
            return Optional.empty();
        }
        int space = authString.indexOf(' ');
        if (space < 1 || space > MAX_INDEX_DIGITS || space == authString.length() - 1) {
            return Optional.empty();
        }
        for (int i = 0; i < authString.length(); i++) {
            char c = authString.charAt(i);
            boolean ok = i < space ? c >= '0' && c <= '9' : i == space || (c > ' ' && c < 0x7f);
            if (!ok) {
                return Optional.empty();
            }
        }
        return Optional.of(Integer.parseInt(authString.substring(0, space)));
    }

    private static String digestHex(AuthKey key, byte[] data) {
        return switch (key.method()) {
            case CRC -> Long.toHexString(HeartbeatCrc32.compute(data));
            case MD5 -> HEX.formatHex(hmac("HmacMD5", key.key(), data));
            case SHA1 -> HEX.formatHex(hmac("HmacSHA1", key.key(), data));
        };
    }

    private static byte[] hmac(String algorithm, byte[] key, byte[] data) {
        // RFC 2104 zero-pads the key to the block size, so an empty key equals the key {0x00};
        // SecretKeySpec refuses empty keys, hence the substitution.
        byte[] effectiveKey = key.length == 0 ? new byte[1] : key;
        try {
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(effectiveKey, algorithm));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is required of every Java platform", e);
        }
    }
}
