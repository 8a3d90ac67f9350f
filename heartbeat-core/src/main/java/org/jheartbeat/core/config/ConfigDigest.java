package org.jheartbeat.core.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jheartbeat.core.auth.AuthKey;
import org.jheartbeat.core.auth.AuthKeys;

/**
 * SHA-256 digests of the parts of a configuration both nodes must agree on, exchanged so that a
 * node can warn when its peer runs a different haresources, authkeys or ha.cf (two nodes that disagree would
 * place groups differently).
 * Each digest is 64 lowercase hex characters over a canonical text built from the parsed
 * {@link ClusterConfig}, never over the raw files, so two files that mean the same thing digest the same:
 *
 * <ul>
 *   <li><b>haresources</b>: one line per group in file order, {@code node token token...} with
 *       single spaces, tokens as written. Comments, blank lines, whitespace runs and {@code \}
 *       continuations do not count. Tokens keep their spelling ({@code 198.18.0.100} and
 *       {@code IPaddr::198.18.0.100} differ) because the first one is the group key that goes on the
 *       wire in {@code ip-request} (legacy failback) and must match on both nodes.</li>
 *   <li><b>authkeys</b>: every defined key as {@code index method hex(key)}, by index. The
 *       {@code auth N} line is left out: nodes may sign with different indexes during a key
 *       rollover and still understand each other. Only the digest goes on the wire, never the key;
 *       an eavesdropper learns no more than from any signed packet (both allow an offline guess
 *       of a weak key).</li>
 *   <li><b>ha.cf</b> (cluster settings only): keepalive, deadtime, warntime, initdead (effective
 *       values in ms, after defaults), udpport, the node list (sorted), auto_failback and
 *       {@code crm} (always {@code off} here); when ping nodes or ipfail are configured, the ping
 *       nodes (sorted, with their hosts), deadping and whether ipfail is on (a file without them
 *       digests as before). Left out because they legitimately differ per node:
 *       logfile, debugfile, logfacility, media (ucast peer addresses, interfaces, serial devices,
 *       baud) and STONITH lines.</li>
 * </ul>
 *
 * @param haresources digest of the haresources groups
 * @param authkeys    digest of the authkeys keys
 * @param haCf        digest of the cluster-relevant ha.cf settings
 */
public record ConfigDigest(String haresources, String authkeys, String haCf) {
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    /** Prefix of every canonical text: a change of the canonical form changes every digest. */
    private static final String VERSION = "jhb-config-digest/1\n";

    public ConfigDigest {
        Objects.requireNonNull(haresources, "haresources");
        Objects.requireNonNull(authkeys, "authkeys");
        Objects.requireNonNull(haCf, "haCf");
    }

    /** The three files, for naming differences: display name and accessor. */
    public enum Part {
        /** haresources. */
        HARESOURCES("haresources"),
        /** authkeys. */
        AUTHKEYS("authkeys"),
        /** ha.cf, cluster-relevant settings only. */
        HA_CF("ha.cf (cluster settings)");

        private final String displayName;

        Part(String displayName) {
            this.displayName = displayName;
        }

        /** How logs and {@code hb status} name it, e.g. {@code ha.cf (cluster settings)}. */
        public String displayName() {
            return displayName;
        }

        /** This part's digest in {@code d}. */
        public String of(ConfigDigest d) {
            return switch (this) {
                case HARESOURCES -> d.haresources();
                case AUTHKEYS -> d.authkeys();
                case HA_CF -> d.haCf();
            };
        }
    }

    /** Digests of {@code config}. */
    public static ConfigDigest of(ClusterConfig config) {
        return new ConfigDigest(sha256(canonicalHaresources(config.resourceGroups())),
                sha256(canonicalAuthkeys(config.authKeys())), sha256(canonicalHaCf(config)));
    }

    /**
     * A digest as received from a peer, if all three values are 64 lowercase hex characters.
     *
     * @return the digest, or null when any value is missing or malformed
     */
    public static ConfigDigest parse(String haresources, String authkeys, String haCf) {
        if (haresources == null || authkeys == null || haCf == null || !HEX64.matcher(haresources).matches()
                || !HEX64.matcher(authkeys).matches() || !HEX64.matcher(haCf).matches()) {
            return null;
        }
        return new ConfigDigest(haresources, authkeys, haCf);
    }

    /** The parts whose digests differ between this and {@code other}, in {@link Part} order. */
    public List<Part> differences(ConfigDigest other) {
        List<Part> out = new ArrayList<>();
        for (Part p : Part.values()) {
            if (!p.of(this).equals(p.of(other))) {
                out.add(p);
            }
        }
        return out;
    }

    static String canonicalHaresources(List<ResourceGroupDecl> groups) {
        StringBuilder sb = new StringBuilder(VERSION).append("haresources\n");
        for (ResourceGroupDecl g : groups) {
            sb.append(g.preferredNode().value());
            g.resources().forEach(r -> sb.append(' ').append(r.token()));
            sb.append('\n');
        }
        return sb.toString();
    }

    static String canonicalAuthkeys(AuthKeys keys) {
        StringBuilder sb = new StringBuilder(VERSION).append("authkeys\n");
        for (AuthKey k : keys.keys().values()) { // a sorted map: by index
            sb.append(k.index()).append(' ').append(k.method().wireName()).append(' ')
                    .append(HexFormat.of().formatHex(k.key())).append('\n');
        }
        return sb.toString();
    }

    static String canonicalHaCf(ClusterConfig c) {
        StringBuilder sb = new StringBuilder(VERSION).append("ha.cf\n");
        sb.append("keepalive ").append(c.timing().keepalive().toMillis()).append('\n');
        sb.append("deadtime ").append(c.timing().deadtime().toMillis()).append('\n');
        sb.append("warntime ").append(c.timing().warntime().toMillis()).append('\n');
        sb.append("initdead ").append(c.timing().initdead().toMillis()).append('\n');
        sb.append("udpport ").append(c.udpPort()).append('\n');
        c.nodes().stream().map(NodeName::value).sorted().forEach(n -> sb.append("node ").append(n).append('\n'));
        sb.append("auto_failback ").append(c.autoFailback().configName()).append('\n');
        sb.append("crm off\n"); // the only value jheartbeat accepts (DirectiveTable CRM)
        if (!c.ping().nodes().isEmpty() || c.ping().ipfail()) {
            // only when used, so that a configuration without ping nodes keeps its digest: the ipfail rule
            // needs the same ping nodes on both nodes to compare like with like
            c.ping().nodes().stream().map(p -> "ping " + p.name() + " " + String.join(",", p.hosts())).sorted()
                    .forEach(l -> sb.append(l).append('\n'));
            sb.append("deadping ").append(c.ping().deadping().toMillis()).append('\n');
            sb.append("ipfail ").append(c.ping().ipfail() ? "on" : "off").append('\n');
        }
        return sb.toString();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
