package org.jheartbeat.core.control;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.core.config.ConfigDigest;
import org.jheartbeat.core.config.ConfigDigest.Part;
import org.jheartbeat.core.config.NodeName;

/**
 * The answer to the control request {@code config-digest}: this node's configuration digests and the
 * peer's, as last received in its {@code jhb-config} ({@link ConfigDigest}). On the socket it is four
 * lines, each {@code name value...} separated by single spaces, the peer's digest {@code -} when unknown:
 * <pre>
 * peer node2
 * haresources LOCAL_HEX PEER_HEX
 * authkeys LOCAL_HEX PEER_HEX
 * ha.cf LOCAL_HEX -
 * </pre>
 *
 * @param peer       the peer's node name
 * @param local      this node's digests
 * @param peerDigest the digests the peer's current run sent, if any
 */
public record ConfigDigestReport(String peer, ConfigDigest local, Optional<ConfigDigest> peerDigest) {
    /** The request line. */
    public static final String REQUEST = "config-digest";

    public ConfigDigestReport {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(local, "local");
        Objects.requireNonNull(peerDigest, "peerDigest");
    }

    /** How one file compares. */
    public enum Verdict {
        /** Both digests are equal. */
        SAME,
        /** The digests differ. */
        DIFFERS,
        /** The peer sent no digest (not heard, or a Heartbeat 3.0.6 node). */
        UNKNOWN
    }

    /** Each file's verdict, in {@link Part} order. */
    public Map<Part, Verdict> compare() {
        Map<Part, Verdict> out = new EnumMap<>(Part.class);
        for (Part p : Part.values()) {
            out.put(p, peerDigest.map(d -> p.of(d).equals(p.of(local)) ? Verdict.SAME : Verdict.DIFFERS)
                    .orElse(Verdict.UNKNOWN));
        }
        return out;
    }

    /** The same report with {@code digest} in place of this node's (e.g. files on disk, not yet running). */
    public ConfigDigestReport withLocal(ConfigDigest digest) {
        return new ConfigDigestReport(peer, digest, peerDigest);
    }

    /** The socket form (see the class comment), ending in a newline. */
    public String toText() {
        StringBuilder sb = new StringBuilder("peer ").append(peer).append('\n');
        for (Part p : Part.values()) {
            sb.append(key(p)).append(' ').append(p.of(local)).append(' ')
                    .append(peerDigest.map(p::of).orElse("-")).append('\n');
        }
        return sb.toString();
    }

    /**
     * Reads the socket form.
     *
     * @throws IllegalArgumentException if {@code text} is not one
     */
    public static ConfigDigestReport parse(String text) {
        Map<String, String[]> lines = new java.util.HashMap<>();
        for (String line : text.split("\n")) {
            String[] w = line.strip().split(" ");
            if (w.length >= 2) {
                lines.put(w[0], w);
            }
        }
        String[] peerLine = lines.get("peer");
        if (peerLine == null || peerLine.length != 2) {
            throw new IllegalArgumentException("no peer line in config digest answer");
        }
        String[][] parts = new String[Part.values().length][];
        for (Part p : Part.values()) {
            String[] w = lines.get(key(p));
            if (w == null || w.length != 3) {
                throw new IllegalArgumentException("no " + key(p) + " line in config digest answer");
            }
            parts[p.ordinal()] = w;
        }
        ConfigDigest local = ConfigDigest.parse(parts[0][1], parts[1][1], parts[2][1]);
        if (local == null) {
            throw new IllegalArgumentException("malformed local digest in config digest answer");
        }
        boolean peerUnknown = parts[0][2].equals("-") || parts[1][2].equals("-") || parts[2][2].equals("-");
        ConfigDigest peerDigest = peerUnknown ? null : ConfigDigest.parse(parts[0][2], parts[1][2], parts[2][2]);
        if (!peerUnknown && peerDigest == null) {
            throw new IllegalArgumentException("malformed peer digest in config digest answer");
        }
        return new ConfigDigestReport(NodeName.of(peerLine[1]).value(), local, Optional.ofNullable(peerDigest));
    }

    /** The one-word name of a file on the socket. */
    private static String key(Part p) {
        return switch (p) {
            case HARESOURCES -> "haresources";
            case AUTHKEYS -> "authkeys";
            case HA_CF -> "ha.cf";
        };
    }
}
