package org.jheartbeat.resources.names;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jheartbeat.core.config.Ipv4;
import org.jheartbeat.resources.ResourceAgentException;

/**
 * The arguments of a {@code Hostname::NAME[::option=value...]} haresources token (built in, jheartbeat
 * only; docs/design/resources.md "Hostname"). Pure.
 *
 * <pre>
 * Hostname::NAME::address=IP[::netbios=yes|NB][::dns=FQDN::dns_server=IP::dns_home=IP[::dns_key=FILE]
 *          [::dns_zone=ZONE][::dns_ttl=SECONDS]][::hostname=yes]
 * </pre>
 *
 * @param name     the peer's host name being taken over ({@code uname -n} of the peer), lowercase
 * @param address  the address this node serves under {@code name} while it holds it (usually the
 *                 peer's service address, taken over by an IP resource to the left); required by
 *                 {@code netbios} and {@code dns}
 * @param netbios  the NetBIOS name to answer for (uppercase, at most 15 characters); {@code yes} means
 *                 {@code name} uppercased, as Samba derives {@code netbios name} from the host name
 * @param dns      the DNS A record to point at {@code address}
 * @param hostname whether to set this machine's UTS host name to {@code name} (restored on stop)
 */
public record HostnameSpec(String name, Optional<String> address, Optional<String> netbios, Optional<Dns> dns,
                           boolean hostname) {
    /** The haresources name. */
    public static final String AGENT = "Hostname";
    /** Default TTL of the A record written, in seconds. */
    public static final int DEFAULT_TTL = 60;
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
    private static final Pattern NETBIOS = Pattern.compile("[A-Z0-9][A-Z0-9_-]{0,14}");
    private static final Pattern FQDN = Pattern.compile("([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+"
            + "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?");
    private static final Set<String> OPTIONS = Set.of("address", "netbios", "dns", "dns_server", "dns_home",
            "dns_key", "dns_zone", "dns_ttl", "hostname");

    /**
     * The DNS part.
     *
     * @param fqdn    the record's owner name, with the trailing dot
     * @param server  the server updated and asked (nsupdate {@code server}, dig {@code @server})
     * @param home    the address the record gets back on stop (the peer's own address)
     * @param keyFile a TSIG key file ({@code nsupdate -k}), or empty for an unsigned update
     * @param zone    the zone ({@code nsupdate zone}), or empty to let nsupdate find it from the SOA
     * @param ttl     the TTL written, in seconds (1..86400)
     */
    public record Dns(String fqdn, String server, String home, Optional<Path> keyFile, Optional<String> zone,
                      int ttl) {
    }

    /**
     * @param args the token's {@code ::} arguments: NAME, then {@code option=value} in any order
     * @param token the whole token, for messages
     * @return the parsed arguments
     * @throws ResourceAgentException naming the token, the wrong argument and what to write
     */
    public static HostnameSpec parse(List<String> args, String token) {
        if (args.isEmpty() || args.get(0).contains("=")) {
            throw bad(token, "the first argument must be the host name taken over (the peer's uname -n)");
        }
        String name = args.get(0);
        if (!HOST.matcher(name).matches()) {
            throw bad(token, "[" + name + "] is not a host name (letters, digits and '-', at most 63)");
        }
        Map<String, String> opts = new LinkedHashMap<>();
        for (String a : args.subList(1, args.size())) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw bad(token, "[" + a + "] is not option=value");
            }
            String key = a.substring(0, eq);
            if (!OPTIONS.contains(key)) {
                throw bad(token, "unknown option [" + key + "]; options are " + OPTIONS.stream().sorted().toList());
            }
            if (opts.putIfAbsent(key, a.substring(eq + 1)) != null) {
                throw bad(token, "option [" + key + "] is given twice");
            }
        }
        Optional<String> address = Optional.ofNullable(opts.get("address")).map(a -> ipv4(token, "address", a));
        Optional<String> netbios = Optional.ofNullable(opts.get("netbios")).map(n -> {
            String nb = (n.equalsIgnoreCase("yes") ? name : n).toUpperCase(Locale.ROOT);
            if (!NETBIOS.matcher(nb).matches()) {
                throw bad(token, "netbios name [" + nb + "] must be 1 to 15 letters, digits, '_' or '-'");
            }
            return nb;
        });
        boolean hostname = yesNo(token, opts.getOrDefault("hostname", "no"));
        Optional<Dns> dns = Optional.empty();
        if (opts.containsKey("dns")) {
            String fqdn = opts.get("dns");
            if (!FQDN.matcher(fqdn).matches()) {
                throw bad(token, "dns=[" + fqdn + "] is not a fully qualified name such as node1.townhall.lan");
            }
            String server = Optional.ofNullable(opts.get("dns_server")).map(s -> ipv4(token, "dns_server", s))
                    .orElseThrow(() -> bad(token, "dns= needs dns_server=IP (the LAN's DNS server to update)"));
            String home = Optional.ofNullable(opts.get("dns_home")).map(s -> ipv4(token, "dns_home", s))
                    .orElseThrow(() -> bad(token, "dns= needs dns_home=IP (the address " + fqdn
                            + " has while its own node holds it; it gets it back on stop)"));
            Optional<Path> key = Optional.ofNullable(opts.get("dns_key")).map(k -> {
                if (!k.startsWith("/")) {
                    throw bad(token, "dns_key=[" + k + "] must be an absolute path (a TSIG key file for nsupdate -k)");
                }
                return Path.of(k);
            });
            Optional<String> zone = Optional.ofNullable(opts.get("dns_zone")).map(z -> {
                if (!FQDN.matcher(z).matches() && !HOST.matcher(z).matches()) {
                    throw bad(token, "dns_zone=[" + z + "] is not a zone name");
                }
                return z.endsWith(".") ? z : z + ".";
            });
            int ttl = DEFAULT_TTL;
            if (opts.containsKey("dns_ttl")) {
                try {
                    ttl = Integer.parseInt(opts.get("dns_ttl"));
                } catch (NumberFormatException e) {
                    ttl = -1;
                }
                if (ttl < 1 || ttl > 86_400) {
                    throw bad(token, "dns_ttl=[" + opts.get("dns_ttl") + "] must be 1..86400 seconds");
                }
            }
            dns = Optional.of(new Dns(fqdn.endsWith(".") ? fqdn : fqdn + ".", server, home, key, zone, ttl));
        } else {
            for (String k : List.of("dns_server", "dns_home", "dns_key", "dns_zone", "dns_ttl")) {
                if (opts.containsKey(k)) {
                    throw bad(token, k + "= without dns=FQDN (the record to update)");
                }
            }
        }
        if ((netbios.isPresent() || dns.isPresent()) && address.isEmpty()) {
            throw bad(token, "netbios= and dns= need address=IP (the address this node serves under " + name
                    + ", e.g. the peer's service address taken over to the left of this resource)");
        }
        if (netbios.isEmpty() && dns.isEmpty() && !hostname) {
            throw bad(token, "it takes over nothing; add netbios=yes, dns=FQDN or hostname=yes");
        }
        return new HostnameSpec(name.toLowerCase(Locale.ROOT), address, netbios, dns, hostname);
    }

    /** The usage line, for messages and {@code hb resources} help. */
    public static String usage() {
        return AGENT + "::NAME::address=IP[::netbios=yes|NB][::dns=FQDN::dns_server=IP::dns_home=IP"
                + "[::dns_key=FILE][::dns_zone=ZONE][::dns_ttl=S]][::hostname=yes]";
    }

    private static String ipv4(String token, String key, String value) {
        try {
            Ipv4.parse(value);
            return value;
        } catch (IllegalArgumentException e) {
            throw bad(token, key + "=: " + e.getMessage());
        }
    }

    private static boolean yesNo(String token, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "yes", "on", "true", "1" -> true;
            case "no", "off", "false", "0" -> false;
            default -> throw bad(token, "hostname=[" + v + "] must be yes or no");
        };
    }

    private static ResourceAgentException bad(String token, String why) {
        return new ResourceAgentException("[" + token + "]: " + why + "; write " + usage());
    }
}
