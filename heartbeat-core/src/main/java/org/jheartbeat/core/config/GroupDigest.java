package org.jheartbeat.core.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What one resource group of haresources is, in a form small enough to send to the peer
 * ({@code cfg_groups} of {@code jhb-config}): its key, its preferred node, a short
 * hash of its canonical definition and short hashes of the resource identities it claims. The peer
 * compares them with its own groups ({@link GroupAgreement}) to find groups the two files define
 * differently.
 *
 * <ul>
 *   <li><b>definition</b>: the resources in start order, each as {@code agent::arg::arg} (a bare IP
 *       token counts as {@code IPaddr::token}, as in Heartbeat 3.0.6 ResourceManager); the first
 *       {@value #HASH_CHARS} hex characters of its SHA-256.</li>
 *   <li><b>identities</b>: what a resource takes on the node, so that two groups claiming it would
 *       clash: {@code ip 198.18.0.100} for an {@code IPaddr}/{@code IPaddr2} resource or a bare IP
 *       token (the address only: prefix, interface and broadcast do not change whose address it is;
 *       octets without leading zeros), {@code script labweb::arg} for anything else (the agent with
 *       its arguments). Sent as the first {@value #HASH_CHARS} hex characters of their SHA-256; the
 *       receiver names a clash by its own identity, which it knows in clear.</li>
 * </ul>
 *
 * <p>Wire form of the whole list: {@code 1} then, for each group in file order, a space and
 * {@code PREF:DEF:ID,ID,...:KEY}, where {@code PREF} and {@code KEY} have {@code %}, {@code :},
 * {@code ,} and control or blank characters written as {@code %XX}. A list longer than
 * {@value #MAX_WIRE_CHARS} characters is sent as {@value #TOO_MANY} instead: about 150 groups of
 * three resources fit, far more than Heartbeat R1 clusters use, and the whole {@code jhb-config}
 * message stays well under a UDP datagram (65,507 bytes), our serial framer's 64 KiB and
 * Heartbeat's MAXMSG (256 KiB, facts A.6).
 *
 * @param key           the group key (first resource token as written)
 * @param preferredNode the node named first on the group's line
 * @param definition    {@value #HASH_CHARS} hex characters of the definition's SHA-256
 * @param identities    {@value #HASH_CHARS} hex characters of each identity's SHA-256, sorted
 */
public record GroupDigest(String key, NodeName preferredNode, String definition, Set<String> identities) {
    /** Hex characters kept of each SHA-256 (48 bits: a chance collision is negligible for any real file). */
    public static final int HASH_CHARS = 12;
    /** Longest {@code cfg_groups} value sent or accepted, in characters. */
    public static final int MAX_WIRE_CHARS = 16_384;
    /** The {@code cfg_groups} value sent when the list would be longer than {@link #MAX_WIRE_CHARS}. */
    public static final String TOO_MANY = "1 !too-many-groups";
    private static final String VERSION = "1";
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{" + HASH_CHARS + "}");
    private static final String PREFIX = "jhb-group/1\n";
    private static final String HEX_DIGITS = "0123456789ABCDEF";

    public GroupDigest {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(preferredNode, "preferredNode");
        Objects.requireNonNull(definition, "definition");
        identities = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(identities));
    }

    /** The digest of {@code group}. */
    public static GroupDigest of(ResourceGroupDecl group) {
        SortedSet<String> ids = new TreeSet<>();
        identities(group).keySet().forEach(ids::add);
        return new GroupDigest(group.key(), group.preferredNode(), hash(definitionText(group)), ids);
    }

    /**
     * The resource identities {@code group} claims, hash → readable form (e.g. {@code address
     * 198.18.0.100}, {@code resource labweb}), in resource order.
     */
    public static Map<String, String> identities(ResourceGroupDecl group) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ResourceSpec r : group.resources()) {
            String address = address(r);
            if (address != null) {
                out.putIfAbsent(hash("ip " + address), "address " + address);
            } else {
                String s = scriptWithArgs(r);
                out.putIfAbsent(hash("script " + s), "resource " + s);
            }
        }
        return out;
    }

    /** The canonical definition text of {@code group} (hashed into {@link #definition()}). */
    static String definitionText(ResourceGroupDecl group) {
        StringBuilder sb = new StringBuilder();
        for (ResourceSpec r : group.resources()) {
            sb.append(scriptWithArgs(r)).append('\n');
        }
        return sb.toString();
    }

    /** The {@code cfg_groups} value for {@code groups} (file order), or {@link #TOO_MANY}. */
    public static String encode(List<GroupDigest> groups) {
        StringBuilder sb = new StringBuilder(VERSION);
        for (GroupDigest g : groups) {
            sb.append(' ').append(escape(g.preferredNode().value())).append(':').append(g.definition()).append(':')
                    .append(String.join(",", g.identities())).append(':').append(escape(g.key()));
            if (sb.length() > MAX_WIRE_CHARS) {
                return TOO_MANY;
            }
        }
        return sb.toString();
    }

    /** What a peer's {@code cfg_groups} said. */
    public sealed interface PeerGroups {
        /** The peer's groups, in its file order. */
        record Listed(List<GroupDigest> groups) implements PeerGroups {
            public Listed {
                groups = List.copyOf(groups);
            }
        }

        /** The peer's list was too long to send ({@link #TOO_MANY}). */
        record TooMany() implements PeerGroups { }

        /** The peer's list could not be read (malformed or over {@link #MAX_WIRE_CHARS}). */
        record Unreadable() implements PeerGroups { }
    }

    /**
     * Parses a peer's {@code cfg_groups}. Bounded: at most {@link #MAX_WIRE_CHARS} characters.
     *
     * @return the groups, {@link PeerGroups.TooMany}, or {@link PeerGroups.Unreadable}
     */
    public static PeerGroups decode(String wire) {
        return parse(wire).orElseGet(PeerGroups.Unreadable::new);
    }

    private static Optional<PeerGroups> parse(String wire) {
        if (wire == null || wire.length() > MAX_WIRE_CHARS) {
            return Optional.empty();
        }
        if (wire.equals(TOO_MANY)) {
            return Optional.of(new PeerGroups.TooMany());
        }
        String[] entries = wire.split(" ", -1);
        if (!entries[0].equals(VERSION)) {
            return Optional.empty();
        }
        List<GroupDigest> out = new ArrayList<>();
        for (int i = 1; i < entries.length; i++) {
            String[] p = entries[i].split(":", -1);
            if (p.length != 4 || !HASH.matcher(p[1]).matches()) {
                return Optional.empty();
            }
            SortedSet<String> ids = new TreeSet<>();
            if (!p[2].isEmpty()) {
                for (String id : p[2].split(",", -1)) {
                    if (!HASH.matcher(id).matches()) {
                        return Optional.empty();
                    }
                    ids.add(id);
                }
            }
            Optional<String> pref = unescape(p[0]);
            Optional<String> key = unescape(p[3]);
            if (pref.isEmpty() || key.isEmpty() || key.get().isEmpty()) {
                return Optional.empty();
            }
            try {
                out.add(new GroupDigest(key.get(), NodeName.of(pref.get()), p[1], ids));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        return Optional.of(new PeerGroups.Listed(out));
    }

    /** The address an IPaddr/IPaddr2 (or bare IP) resource takes, canonical dotted quad; null for others. */
    private static String address(ResourceSpec r) {
        if (!r.agent().equals(ResourceSpec.IPADDR) && !r.agent().equals("IPaddr2") || r.args().isEmpty()) {
            return null;
        }
        String ip = r.args().get(0).split("/", -1)[0];
        if (!Ipv4.isLiteral(ip)) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (String octet : ip.split("\\.")) {
            sb.append(sb.length() == 0 ? "" : ".").append(Integer.parseInt(octet));
        }
        return sb.toString();
    }

    private static String scriptWithArgs(ResourceSpec r) {
        StringBuilder sb = new StringBuilder(r.agent());
        r.args().forEach(a -> sb.append("::").append(a));
        return sb.toString();
    }

    static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest((PREFIX + text).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d).substring(0, HASH_CHARS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c == 0x7f || c == '%' || c == ':' || c == ',') {
                sb.append('%').append(String.format("%02X", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Reverses {@link #escape}; empty for a stray {@code :} or {@code ,} or a bad {@code %XX}. */
    private static Optional<String> unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' || c == ':') {
                return Optional.empty();
            }
            if (c != '%') {
                sb.append(c);
                continue;
            }
            int hi = i + 2 < s.length() ? HEX_DIGITS.indexOf(s.charAt(i + 1)) : -1;
            int lo = i + 2 < s.length() ? HEX_DIGITS.indexOf(s.charAt(i + 2)) : -1;
            if (hi < 0 || lo < 0 || hi > 7) {
                return Optional.empty();
            }
            sb.append((char) (hi * 16 + lo));
            i += 2;
        }
        return Optional.of(sb.toString());
    }
}
