package org.jheartbeat.cli.metrics;

import java.util.regex.Pattern;

/**
 * A resource or group key as a metrics label. Keys are haresources tokens ({@code IPaddr::198.18.0.100/24},
 * {@code ocf:heartbeat:mysql::config=/etc/mysql/my.cnf::replication_passwd=...}), and an endpoint may be scraped
 * from another machine, so a parameter whose name says it holds a secret (password, passwd, secret, token, key,
 * credential) shows as {@code NAME=hidden}. The rest stays, so labels stay unique and recognisable beside
 * {@code hb status}.
 */
final class LabelText {
    private static final Pattern SECRET = Pattern.compile("(?i).*(pass|secret|token|key|credential).*");

    private LabelText() {
    }

    /** The token with secret-looking parameter values replaced by {@code hidden}. */
    static String of(String token) {
        String[] parts = token.split("::", -1);
        StringBuilder out = new StringBuilder(token.length());
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            int eq = p.indexOf('=');
            if (i > 0) {
                out.append("::");
            }
            out.append(i > 0 && eq > 0 && SECRET.matcher(p.substring(0, eq)).matches()
                    ? p.substring(0, eq) + "=hidden" : p);
        }
        return out.toString();
    }
}
