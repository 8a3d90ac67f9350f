package org.jheartbeat.director.config;

import static org.jheartbeat.director.config.LdirectordProblems.abbreviate;
import static org.jheartbeat.director.config.LdirectordValues.DIGITS;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The addresses and ports of ldirectord.cf ({@code virtual=}, {@code real=}, {@code fallback=} and their
 * IPv6 forms): {@code host:port} and {@code [v6]:port}, port numbers and names (well-known ones, then
 * {@code /etc/services}), IPv4 and IPv6 literals, and host names resolved while reading, as ldirectord
 * does. Each problem is reported at the directive's line.
 */
final class LdirectordAddresses {
    /** Port names accepted without /etc/services (the well-known ones ldirectord configs use). */
    static final Map<String, Integer> WELL_KNOWN_PORTS = Map.ofEntries(Map.entry("ftp", 21), Map.entry("smtp", 25),
            Map.entry("domain", 53), Map.entry("http", 80), Map.entry("www", 80), Map.entry("pop3", 110),
            Map.entry("nntp", 119), Map.entry("imap", 143), Map.entry("imap2", 143), Map.entry("ldap", 389),
            Map.entry("https", 443), Map.entry("submission", 587), Map.entry("ldaps", 636),
            Map.entry("imaps", 993), Map.entry("pop3s", 995), Map.entry("mysql", 3306),
            Map.entry("sip", 5060), Map.entry("postgresql", 5432));

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");


    private final Function<String, Optional<InetAddress>> resolver;
    private final LdirectordProblems problems;

    /**
     * @param resolver a host name's address, or empty if it does not resolve
     */
    LdirectordAddresses(Function<String, Optional<InetAddress>> resolver, LdirectordProblems problems) {
        this.resolver = resolver;
        this.problems = problems;
    }

    /**
     * {@code host:port}, {@code [v6]:port}; with {@code portRequired} false the port may be
     * omitted (0).
     */
    Optional<Endpoint> endpoint(String text, int line, boolean v6, boolean portRequired, String what) {
        String host;
        String port = null;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                problems.error(line, what + ": '" + abbreviate(text) + "' has '[' without ']'; write [address]:port");
                return Optional.empty();
            }
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    problems.error(line, what + ": expected ':port' after ']' in '" + abbreviate(text) + "'");
                    return Optional.empty();
                }
                port = rest.substring(1);
            }
        } else {
            int colon = text.lastIndexOf(':');
            if (colon >= 0 && text.indexOf(':') != colon) {
                problems.error(line, what + ": IPv6 address '" + abbreviate(text) + "' must be bracketed: [address]:port");
                return Optional.empty();
            }
            host = colon >= 0 ? text.substring(0, colon) : text;
            port = colon >= 0 ? text.substring(colon + 1) : null;
        }
        if (port == null && portRequired) {
            problems.error(line, what + " = " + abbreviate(text) + " has no port; write address:port (e.g. "
                    + (v6 ? "[2001:db8::1]:80" : "198.18.0.100:80") + ")");
            return Optional.empty();
        }
        int portNo = 0;
        if (port != null) {
            Optional<Integer> p = port(port, line, what);
            if (p.isEmpty()) {
                return Optional.empty();
            }
            portNo = p.get();
        }
        Optional<InetAddress> addr = address(host, line, v6, what);
        int finalPort = portNo;
        return addr.map(a -> new Endpoint(a, finalPort));
    }

    private Optional<Integer> port(String text, int line, String what) {
        if (DIGITS.matcher(text).matches()) {
            int p = text.length() > 5 ? 70000 : Integer.parseInt(text);
            if (p > 65535) {
                problems.error(line, what + ": port " + abbreviate(text) + " is out of range 0-65535");
                return Optional.empty();
            }
            return Optional.of(p);
        }
        Integer known = WELL_KNOWN_PORTS.get(text.toLowerCase(Locale.ROOT));
        if (known == null) {
            known = etcServices().get(text.toLowerCase(Locale.ROOT));
        }
        if (known == null) {
            problems.error(line, what + ": unknown port name '" + abbreviate(text) + "'; use a number or a name from"
                    + " /etc/services");
            return Optional.empty();
        }
        return Optional.of(known);
    }

    Optional<InetAddress> address(String host, int line, boolean v6, String what) {
        if (host.isEmpty()) {
            problems.error(line, what + ": the address is missing; write address:port");
            return Optional.empty();
        }
        Matcher m = IPV4.matcher(host);
        Optional<InetAddress> a;
        if (m.matches()) {
            for (int i = 1; i <= 4; i++) {
                if (Integer.parseInt(m.group(i)) > 255) {
                    problems.error(line, what + ": '" + host + "' is not an IPv4 address (each part is 0-255)");
                    return Optional.empty();
                }
            }
            a = literal(host);
        } else if (host.indexOf(':') >= 0) {
            a = literal(host);
            if (a.isEmpty()) {
                problems.error(line, what + ": '" + abbreviate(host) + "' is not an IPv6 address");
                return Optional.empty();
            }
        } else if (host.matches("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")) {
            a = resolver.apply(host);
            if (a.isEmpty()) {
                problems.error(line, what + ": host name '" + abbreviate(host) + "' does not resolve; use its address or"
                        + " fix /etc/hosts or DNS");
                return Optional.empty();
            }
        } else {
            problems.error(line, what + ": '" + abbreviate(host) + "' is neither an address nor a host name");
            return Optional.empty();
        }
        InetAddress addr = a.orElseThrow();
        if (v6 && !(addr instanceof Inet6Address)) {
            problems.error(line, what + ": " + host + " is not an IPv6 address; use the IPv4 form of the directive");
            return Optional.empty();
        }
        if (!v6 && !(addr instanceof Inet4Address)) {
            problems.error(line, what + ": " + host + " is an IPv6 address; use virtual6/real6/fallback6 with [address]");
            return Optional.empty();
        }
        return a;
    }

    private Optional<InetAddress> literal(String host) {
        try {
            return Optional.of(InetAddress.getByName(host));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** A dotted IPv4 netmask: four parts 0-255 whose bits are ones then zeros. */
    static boolean isNetmask(String v) {
        Matcher m = IPV4.matcher(v);
        if (!m.matches()) {
            return false;
        }
        long bits = 0;
        for (int i = 1; i <= 4; i++) {
            int b = Integer.parseInt(m.group(i));
            if (b > 255) {
                return false;
            }
            bits = bits << 8 | b;
        }
        long inv = ~bits & 0xffffffffL;
        return (inv & (inv + 1)) == 0;
    }

    /** An IPv4 address as a number, for ranges. */
    static long toLong(InetAddress a) {
        byte[] b = a.getAddress();
        long v = 0;
        for (byte x : b) {
            v = v << 8 | (x & 0xff);
        }
        return v;
    }

    /** The IPv4 address of a number. */
    static InetAddress fromLong(long v) {
        byte[] b = {(byte) (v >> 24), (byte) (v >> 16), (byte) (v >> 8), (byte) v};
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static volatile Map<String, Integer> services;

    /** Port names from /etc/services (read once; empty if absent). */
    private static Map<String, Integer> etcServices() {
        Map<String, Integer> s = services;
        if (s == null) {
            Map<String, Integer> m = new java.util.HashMap<>();
            try {
                for (String l : Files.readAllLines(Path.of("/etc/services"), StandardCharsets.ISO_8859_1)) {
                    String[] f = l.replaceAll("#.*", "").trim().split("\\s+");
                    if (f.length >= 2 && f[1].matches("[0-9]+/(tcp|udp)")) {
                        int port = Integer.parseInt(f[1].substring(0, f[1].indexOf('/')));
                        for (int i = 0; i < f.length; i++) {
                            if (i != 1) {
                                m.putIfAbsent(f[i].toLowerCase(Locale.ROOT), port);
                            }
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // no /etc/services: only the well-known names are accepted
            }
            s = Map.copyOf(m);
            services = s;
        }
        return s;
    }
}
