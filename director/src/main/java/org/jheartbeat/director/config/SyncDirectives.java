package org.jheartbeat.director.config;

import static org.jheartbeat.director.config.LdirectordProblems.abbreviate;
import static org.jheartbeat.director.config.LdirectordValues.unquote;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The connection-sync directives ({@link SyncSettings}): {@code syncdaemon}, {@code syncid}, {@code syncpeer},
 * {@code syncauthkeys}. Each value is checked at its own line; the others need {@code syncdaemon}.
 */
final class SyncDirectives {
    /** A Linux interface name: at most 15 bytes (IFNAMSIZ 16 with its NUL), no blank, '/' or ':'. */
    private static final Pattern IFACE = Pattern.compile("[A-Za-z0-9_.@-]{1,15}");

    private SyncDirectives() {
    }

    /** The value of one sync directive, or empty after an error at its line. */
    static Optional<?> check(String key, DirectiveLine r, LdirectordValues values, LdirectordProblems problems) {
        String v = unquote(r.value()).strip();
        switch (key) {
            case "syncdaemon":
                if (!IFACE.matcher(v).matches() || v.equals(".") || v.equals("..")) {
                    problems.error(r.line(), "syncdaemon must name the network interface of the sync link (at most"
                            + " 15 letters, digits, '.', '_', '-', '@'), e.g. syncdaemon = eth1; not '"
                            + abbreviate(r.value()) + "'");
                    return Optional.empty();
                }
                return Optional.of(v);
            case "syncid":
                return values.integer(key, r, 0, 255);
            case "syncpeer": {
                List<InetAddress> peers = new ArrayList<>();
                for (String w : v.split("[\\s,]+")) {
                    try {
                        peers.add(numeric(w));
                    } catch (IllegalArgumentException e) {
                        problems.error(r.line(), "syncpeer takes the numeric addresses of both directors on the"
                                + " sync link, e.g. syncpeer = 10.0.0.1 10.0.0.2; '" + abbreviate(w) + "' is not one");
                        return Optional.empty();
                    }
                }
                return Optional.of(peers);
            }
            case "syncauthkeys": {
                Path p = Path.of(v);
                if (!p.isAbsolute() || !Files.isReadable(p)) {
                    problems.error(r.line(), "syncauthkeys must be the absolute path of a readable authkeys file"
                            + " (Heartbeat's, e.g. /etc/ha.d/authkeys); '" + abbreviate(v) + "' is not");
                    return Optional.empty();
                }
                return Optional.of(p);
            }
            default:
                throw new IllegalArgumentException(key);
        }
    }

    /** A numeric IPv4 or IPv6 address (never a name: no DNS at read time). */
    static InetAddress numeric(String w) {
        if (!w.matches("[0-9.]{7,15}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
            throw new IllegalArgumentException(w);
        }
        try {
            return InetAddress.getByName(w);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(w, e);
        }
    }

    /**
     * The settings from the kept values (by directive name), or empty without {@code syncdaemon}; the other
     * sync directives without it are an error at their lines.
     */
    @SuppressWarnings("unchecked")
    static Optional<SyncSettings> settings(Map<String, Object> values, Map<String, DirectiveLine> lines,
                                           LdirectordProblems problems, String configName) {
        if (!values.containsKey("syncdaemon")) {
            // a bad syncdaemon line was reported at its line already
            for (String k : lines.containsKey("syncdaemon") ? List.<String>of() : List.of("syncid", "syncpeer",
                    "syncauthkeys")) {
                if (lines.containsKey(k)) {
                    problems.error(lines.get(k).line(), k + " needs syncdaemon = IF (the interface of the sync link);"
                            + " add it or remove " + k);
                }
            }
            return Optional.empty();
        }
        return Optional.of(new SyncSettings((String) values.get("syncdaemon"),
                Optional.ofNullable((Integer) values.get("syncid")),
                (List<InetAddress>) values.getOrDefault("syncpeer", List.of()),
                (Path) values.getOrDefault("syncauthkeys", SyncSettings.DEFAULT_AUTHKEYS), configName));
    }
}
