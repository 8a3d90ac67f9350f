package org.jheartbeat.cli.config;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.MediumDecl;

/**
 * authkeys read together with ha.cf's media and jheartbeat.yaml's {@code authkeys:} section: where {@code crc} may
 * authenticate, and whether a key roll-over window is open, over or too long. Checked by {@code hb config check},
 * at daemon start (an error stops it) and at reload (an error applies nothing).
 */
public final class AuthkeysPolicy {
    /** A roll-over window ending further away than this is warned about. */
    public static final Duration LONG_WINDOW = Duration.ofDays(7);

    private AuthkeysPolicy() {
    }

    /** The configuration with jheartbeat.yaml's roll-over window on its keys. */
    public static ClusterConfig apply(ClusterConfig config, JheartbeatYaml yaml) {
        return config.withAuthKeys(config.authKeys().withRollover(yaml.authkeys().rolloverUntil()));
    }

    /**
     * The problems of this combination at {@code now}.
     * <ul>
     *   <li>ERROR, on each network medium's ha.cf line: the {@code auth} key is {@code crc} and the medium's interface
     *       is not listed in {@code crc_links} (anyone who can send on that network could forge messages);</li>
     *   <li>WARNING: a roll-over window that has ended or ends more than {@link #LONG_WINDOW} away; keys that are
     *       defined but not accepted outside a window; a {@code crc_links} entry no medium uses.</li>
     * </ul>
     */
    public static List<ConfigDiagnostic> check(ClusterConfig config, JheartbeatYaml yaml, Instant now) {
        List<ConfigDiagnostic> out = new ArrayList<>();
        Path haCf = config.configDir().resolve("ha.cf");
        Path authkeys = config.configDir().resolve("authkeys");
        Path yamlFile = yaml.source() != null ? yaml.source() : config.configDir().resolve(JheartbeatYaml.NAME);
        AuthKeys keys = config.authKeys();
        int auth = keys.signingIndex();
        Set<String> used = new TreeSet<>();
        for (MediumDecl m : config.media()) {
            String iface = m instanceof MediumDecl.Ucast u ? u.iface() : m instanceof MediumDecl.Bcast b ? b.iface()
                    : m instanceof MediumDecl.Mcast c ? c.iface() : null; // serial: a cable between the machines
            if (iface == null) {
                continue;
            }
            used.add(iface);
            if (keys.signingKey().method() == AuthMethod.CRC && !yaml.authkeys().crcLinks().contains(iface)) {
                out.add(ConfigDiagnostic.error(haCf, m.line(), "the link on " + iface + " carries messages"
                        + " authenticated with crc (authkeys: auth " + auth + "), which anyone who can send on that"
                        + " network can forge; write '" + auth + " sha1 KEY' on both nodes (openssl rand -hex 32), or,"
                        + " if " + iface + " is a crossover cable, list it in " + JheartbeatYaml.NAME
                        + " authkeys: crc_links: [" + iface + "]"));
            }
        }
        for (String link : new TreeSet<>(yaml.authkeys().crcLinks())) {
            if (!used.contains(link)) {
                out.add(ConfigDiagnostic.warning(yamlFile, 0, "authkeys: crc_links: " + link + " is not the interface"
                        + " of any ha.cf medium; remove it"));
            }
        }
        Set<Integer> others = new TreeSet<>(keys.keys().keySet());
        others.remove(auth);
        if (keys.rolloverUntil().isPresent()) {
            Instant until = keys.rolloverUntil().get();
            if (!now.isBefore(until)) {
                out.add(ConfigDiagnostic.warning(yamlFile, 0, "authkeys: rollover_until: " + until + " has passed:"
                        + " only key " + auth + " (auth " + auth + ") is accepted; remove the line"
                        + (others.isEmpty() ? "" : ", and keys " + others + " from authkeys")));
            } else if (Duration.between(now, until).compareTo(LONG_WINDOW) > 0) {
                out.add(ConfigDiagnostic.warning(yamlFile, 0, "authkeys: rollover_until: " + until + " is more than "
                        + LONG_WINDOW.toDays() + " days away: until then every key of authkeys authenticates; finish"
                        + " the roll-over (auth N on both nodes) and remove the line"));
            }
        } else if (!others.isEmpty()) {
            out.add(ConfigDiagnostic.warning(authkeys, 0, "keys " + others + " are defined, but only key " + auth
                    + " (auth " + auth + ") is accepted: remove them, or during a key roll-over open a window with "
                    + JheartbeatYaml.NAME + " authkeys: rollover_until:"));
        }
        return out;
    }
}
