package org.jheartbeat.stonith.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.stonith.StonithConfigException;
import org.slf4j.Logger;

/**
 * Host-list parsing as cluster-glue's {@code StringToHostList} ({@code expect.c}; facts
 * stonith-sync §1.6): names separated by space, tab, CR, LF, FF or comma, lower-cased.
 */
public final class HostList {
    private HostList() {
    }

    /**
     * @param text the list as written in ha.cf or {@code -p}; may be {@code null}
     * @return the lower-cased names in order, duplicates removed; empty for null/blank text
     */
    public static List<String> parse(String text) {
        List<String> hosts = new ArrayList<>();
        if (text == null) {
            return hosts;
        }
        for (String word : text.split("[ \t\r\n\f,]+")) {
            String host = word.toLowerCase(Locale.ROOT);
            if (!host.isEmpty() && !hosts.contains(host)) {
                hosts.add(host);
            }
        }
        return hosts;
    }

    /**
     * The non-empty host list in {@code params.get(name)}.
     *
     * @throws StonithConfigException naming the parameter when it is missing or empty
     */
    public static List<String> required(Map<String, String> params, String name, String type)
            throws StonithConfigException {
        List<String> hosts = parse(params.get(name));
        if (hosts.isEmpty()) {
            throw new StonithConfigException(type + ": parameter '" + name
                    + "' is missing or empty (give the node names, separated by blanks or commas)");
        }
        return hosts;
    }

    /**
     * The check before fencing {@code node}: its name as devices compare it ({@link #normalize}) when
     * {@code hosts} lists it; otherwise an ERROR {@code DEVICE: HOST is not in PARAM [HOSTS]} and empty, for
     * which the device answers {@code BADHOST}.
     *
     * @param device the device's name in the log line (its type, or the fence agent)
     * @param param  the parameter that lists the hosts, e.g. {@code hostlist}
     * @param log    the device's logger
     */
    public static Optional<String> listed(String node, List<String> hosts, String device, String param, Logger log) {
        String host = normalize(node);
        if (!hosts.contains(host)) {
            log.error("{}: {} is not in {} {}", device, host, param, hosts);
            return Optional.empty();
        }
        return Optional.of(host);
    }

    /** The node name as devices compare it: lower-cased, as the {@code stonith} command does (§2.2). */
    public static String normalize(String node) {
        return node == null ? "" : node.trim().toLowerCase(Locale.ROOT);
    }
}
