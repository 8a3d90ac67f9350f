package org.jheartbeat.resources.names;

import java.util.List;
import org.jheartbeat.core.config.Ipv4;

/**
 * The A records in {@code dig +short} output: one address a line; other lines (a CNAME target,
 * {@code ;;} comments) are skipped. An empty list means the name has no A record there. Pure.
 */
public final class DigAnswer {
    private DigAnswer() {
    }

    /** @param stdout dig's output @return the IPv4 addresses, in output order */
    public static List<String> addresses(String stdout) {
        return stdout.lines().map(String::strip).filter(Ipv4::isLiteral).toList();
    }
}
