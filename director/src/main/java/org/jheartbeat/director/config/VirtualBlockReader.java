package org.jheartbeat.director.config;

import static org.jheartbeat.director.config.LdirectordProblems.abbreviate;
import static org.jheartbeat.director.config.LdirectordValues.DIGITS;
import static org.jheartbeat.director.config.LdirectordValues.unquote;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.config.Suggestions;

/**
 * One {@code virtual=} block of ldirectord.cf made a {@link VirtualService}: its key (address and port,
 * or firewall mark), every per-virtual directive with ldirectord 4.x's defaults and checks, the global
 * defaults it inherits (a bad inherited value reported once, at its own line), and its real servers.
 */
final class VirtualBlockReader {
    /** Services ldirectord 4.x knows. */
    static final Set<String> SERVICES = Set.of("dns", "ftp", "http", "https", "http_proxy", "imap", "imaps", "ldap",
            "ldaps", "mysql", "nntp", "none", "oracle", "pgsql", "pop", "pops", "radius", "simpletcp", "sip", "smtp",
            "submission");
    /** Schedulers ipvsadm 1.31 lists (plus twos, Linux 6.x); others draw a warning. */
    static final Set<String> KNOWN_SCHEDULERS = Set.of("rr", "wrr", "lc", "wlc", "lblc", "lblcr", "dh", "sh", "sed",
            "nq", "fo", "ovf", "mh", "twos");
    /** The service ldirectord assumes for a virtual port, as ldirectord 4.x; any other port is none. */
    static final Map<Integer, String> SERVICE_BY_PORT = Map.ofEntries(Map.entry(21, "ftp"), Map.entry(25, "smtp"),
            Map.entry(53, "dns"), Map.entry(80, "http"), Map.entry(110, "pop"), Map.entry(119, "nntp"),
            Map.entry(143, "imap"), Map.entry(389, "ldap"), Map.entry(443, "https"), Map.entry(587, "submission"),
            Map.entry(636, "ldaps"), Map.entry(993, "imaps"), Map.entry(995, "pops"), Map.entry(1521, "oracle"),
            Map.entry(1812, "radius"), Map.entry(3128, "http_proxy"), Map.entry(3306, "mysql"),
            Map.entry(5060, "sip"), Map.entry(5432, "pgsql"));
    private final LdirectordProblems problems;
    private final LdirectordValues values;
    private final LdirectordAddresses addresses;
    private final RealServerLines realLines;

    VirtualBlockReader(LdirectordProblems problems, LdirectordValues values, LdirectordAddresses addresses,
            RealServerLines realLines) {
        this.problems = problems;
        this.values = values;
        this.addresses = addresses;
        this.realLines = realLines;
    }

    /** A number set in the block (errors reported) or inherited (already checked, quiet). */
    private Optional<Integer> blockInt(String key, Map<String, DirectiveLine> own, LdirectordParser.GlobalDefaults g, int min, int max) {
        if (own.containsKey(key)) {
            return values.integer(key, own.get(key), min, max);
        }
        DirectiveLine r = g.inherited.get(key);
        if (r == null) {
            return Optional.empty();
        }
        String v = unquote(r.value());
        if (!DIGITS.matcher(v).matches() || v.length() > 9 || Integer.parseInt(v) < min || Integer.parseInt(v) > max) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(v));
    }

    /**
     * A virtual service from its block and the global defaults; empty when the block has an error (each
     * reported at its line).
     */
    Optional<VirtualService> read(LdirectordParser.Block b, LdirectordParser.GlobalDefaults g) {
        int line = b.virtual.line();
        Optional<ServiceKey> parsedKey = virtualKey(b);
        if (parsedKey.isEmpty()) {
            return Optional.empty();
        }
        ServiceKey key = parsedKey.get();
        Map<String, DirectiveLine> d = b.directives;
        boolean ok = true;

        // protocol: tcp by default (udp for port 53), fwm for a mark; a mismatch is an error
        if (d.containsKey("protocol")) {
            DirectiveLine r = d.get("protocol");
            Optional<Protocol> p = Protocol.fromConfig(unquote(r.value()));
            if (p.isEmpty()) {
                problems.error(r.line(), "protocol must be tcp, udp or fwm, not '" + abbreviate(r.value()) + "'");
                ok = false;
            } else if ((p.get() == Protocol.FWM) != (key.protocol() == Protocol.FWM)) {
                problems.error(r.line(), "protocol = " + p.get().configName() + " does not fit virtual = "
                        + b.virtual.value() + ": use fwm for a firewall mark, tcp or udp for ip:port");
                ok = false;
            } else if (key.protocol() != Protocol.FWM) {
                key = ServiceKey.of(p.get(), key.endpoint().orElseThrow());
            }
        }
        String scheduler = d.containsKey("scheduler") ? unquote(d.get("scheduler").value()) : "wrr";
        if (d.containsKey("scheduler")) {
            if (!scheduler.matches("[a-z]+")) {
                problems.error(d.get("scheduler").line(), "scheduler must be a word of lower-case letters such as wrr, lc"
                        + " or wlc, not '" + abbreviate(scheduler) + "'");
                ok = false;
            } else if (!KNOWN_SCHEDULERS.contains(scheduler)) {
                problems.warning(d.get("scheduler").line(), "scheduler '" + scheduler + "' is not one ipvsadm 1.31 knows ("
                        + String.join("|", new java.util.TreeSet<>(KNOWN_SCHEDULERS)) + "); the kernel will refuse"
                        + " it unless a module provides it");
            }
        }
        Optional<String> schedFlags = Optional.ofNullable(d.get("schedflags")).map(r -> unquote(r.value()));
        Optional<Integer> persistent = Optional.empty();
        if (d.containsKey("persistent")) {
            Optional<Integer> p = values.integer("persistent", d.get("persistent"), 1, 31 * 24 * 3600);
            ok &= p.isPresent();
            persistent = p;
        }
        Optional<String> netmask = Optional.empty();
        if (d.containsKey("netmask")) {
            DirectiveLine r = d.get("netmask");
            String v = unquote(r.value());
            boolean valid = key.ipv6() ? DIGITS.matcher(v).matches() && Integer.parseInt(v) >= 1
                    && Integer.parseInt(v) <= 128 : LdirectordAddresses.isNetmask(v);
            if (!valid) {
                problems.error(r.line(), "netmask must be " + (key.ipv6() ? "a prefix length 1-128" : "a dotted netmask"
                        + " such as 255.255.255.0") + ", not '" + abbreviate(v) + "'");
                ok = false;
            } else {
                netmask = Optional.of(v);
                if (persistent.isEmpty()) {
                    problems.warning(r.line(), "netmask has no effect without persistent (ldirectord passes -M only with"
                            + " -p); add 'persistent = N' or remove it");
                }
            }
        }
        boolean ops = false;
        if (d.containsKey("ops")) {
            Optional<Boolean> o = values.yesNo("ops", d.get("ops"));
            ok &= o.isPresent();
            ops = o.orElse(false);
            if (ops && key.protocol() != Protocol.UDP) {
                problems.error(d.get("ops").line(), "ops = yes (one-packet scheduling) applies to UDP services only;"
                        + " remove it or set protocol = udp");
                ok = false;
            }
        }
        String checkType = "negotiate";
        if (d.containsKey("checktype")) {
            DirectiveLine r = d.get("checktype");
            String v = unquote(r.value()).toLowerCase(Locale.ROOT);
            Set<String> types = Set.of("negotiate", "connect", "ping", "external", "external-perl", "off", "on");
            if ("negotiate_connect".equals(v)) {
                problems.error(r.line(), "checktype negotiate_connect is not a keyword of ldirectord 4.x: use a number N"
                        + " (a negotiate check after every N connect checks)");
                ok = false;
            } else if (!types.contains(v) && !(DIGITS.matcher(v).matches() && !v.matches("0+"))) {
                problems.error(r.line(), "checktype must be one of negotiate, connect, ping, external, external-perl, off,"
                        + " on or a number, not '" + abbreviate(v) + "'");
                ok = false;
            } else {
                checkType = v;
            }
        }
        String service = key.protocol() == Protocol.FWM ? "none"
                : SERVICE_BY_PORT.getOrDefault(key.port(), "none");
        if (d.containsKey("service")) {
            DirectiveLine r = d.get("service");
            String v = unquote(r.value()).toLowerCase(Locale.ROOT);
            if (!SERVICES.contains(v)) {
                problems.error(r.line(), "unknown service '" + abbreviate(v) + "'" + Suggestions.closest(v, SERVICES)
                        .map(s -> "; did you mean '" + s + "'?")
                        .orElse("; use one of " + String.join(" ", new java.util.TreeSet<>(SERVICES))));
                ok = false;
            } else {
                service = v;
            }
        }
        Optional<Integer> checkPort = Optional.empty();
        if (d.containsKey("checkport")) {
            checkPort = values.integer("checkport", d.get("checkport"), 1, 65535);
            ok &= checkPort.isPresent();
        }
        Optional<String> request = values.quotedOpt("request", d);
        Optional<String> receive = values.quotedOpt("receive", d);
        ok &= !d.containsKey("request") || request.isPresent();
        ok &= !d.containsKey("receive") || receive.isPresent();
        if (receive.isPresent()) {
            ok &= values.regex(receive.get(), d.get("receive").line());
        }
        if (request.isPresent() && service.startsWith("http") && !service.equals("http_proxy")
                && !request.get().startsWith("/")) {
            request = Optional.of("/" + request.get());
        }
        String httpMethod = "GET";
        if (d.containsKey("httpmethod")) {
            String v = unquote(d.get("httpmethod").value()).toUpperCase(Locale.ROOT);
            if (!v.equals("GET") && !v.equals("HEAD")) {
                problems.error(d.get("httpmethod").line(), "httpmethod must be GET or HEAD, not '" + abbreviate(v) + "'");
                ok = false;
            } else {
                httpMethod = v;
                if (v.equals("HEAD") && receive.isPresent()) {
                    problems.warning(d.get("httpmethod").line(), "httpmethod = HEAD returns no body, so receive can never"
                            + " match; remove receive");
                }
            }
        }
        Optional<String> virtualHost = Optional.ofNullable(d.get("virtualhost")).map(r -> unquote(r.value()));
        Optional<String> login = Optional.ofNullable(d.get("login")).map(r -> unquote(r.value()));
        Optional<String> passwd = Optional.ofNullable(d.get("passwd")).map(r -> unquote(r.value()));
        if (service.equals("ftp")) {
            login = login.or(() -> Optional.of("anonymous"));
            passwd = passwd.or(() -> Optional.of("ldirectord@" + localHostName()));
        } else if (service.equals("sip")) {
            login = login.or(() -> Optional.of("ldirectord@" + localHostName()));
        }
        Optional<String> database = Optional.ofNullable(d.get("database")).map(r -> unquote(r.value()));
        Optional<String> secret = Optional.ofNullable(d.get("secret")).map(r -> unquote(r.value()));
        String checkCommand = Optional.ofNullable(d.get("checkcommand")).map(r -> unquote(r.value()))
                .orElse("/bin/true");
        if ((service.equals("mysql") || service.equals("pgsql") || service.equals("oracle"))
                && checkType.equals("negotiate") && request.isEmpty()) {
            problems.error(line, "service = " + service + " with checktype = negotiate needs request = \"SELECT ...\""
                    + " (a query that returns at least one row)");
            ok = false;
        }

        // per-virtual settings with global defaults
        Map<String, DirectiveLine> eff = new LinkedHashMap<>(g.inherited);
        eff.putAll(d);
        Optional<Integer> vCheckTimeout = d.containsKey("checktimeout")
                ? values.integer("checktimeout", d.get("checktimeout"), 1, Integer.MAX_VALUE) : Optional.empty();
        Optional<Integer> vNegTimeout = d.containsKey("negotiatetimeout")
                ? values.integer("negotiatetimeout", d.get("negotiatetimeout"), 1, Integer.MAX_VALUE) : Optional.empty();
        Optional<Integer> gCheckTimeout = globalInt("checktimeout", g, line);
        Optional<Integer> gNegTimeout = globalInt("negotiatetimeout", g, line);
        ok &= d.containsKey("checktimeout") == vCheckTimeout.isPresent();
        ok &= d.containsKey("negotiatetimeout") == vNegTimeout.isPresent();
        int checkTimeout = vCheckTimeout.or(() -> vNegTimeout).or(() -> gCheckTimeout).or(() -> gNegTimeout)
                .orElse(5);
        int negotiateTimeout = vNegTimeout.or(() -> vCheckTimeout).or(() -> gNegTimeout).or(() -> gCheckTimeout)
                .orElse(30);
        Duration checkInterval = g.checkInterval;
        if (d.containsKey("checkinterval")) {
            Optional<Duration> ci = values.seconds("checkinterval", d.get("checkinterval"));
            ok &= ci.isPresent();
            if (ci.isPresent()) {
                if (g.fork) {
                    checkInterval = ci.get();
                } else {
                    problems.warning(d.get("checkinterval").line(), "a per-virtual checkinterval only takes effect with"
                            + " fork = yes (as in ldirectord); the global checkinterval ("
                            + g.checkInterval.toSeconds() + " s) is used");
                }
            }
        }
        int checkCount = blockInt("checkcount", d, g, 1, 1_000_000).orElse(1);
        ok &= !d.containsKey("checkcount") || blockInt("checkcount", d, g, 1, 1_000_000).isPresent();
        int failureCount = blockInt("failurecount", d, g, 1, 1_000_000).orElse(1);
        ok &= !d.containsKey("failurecount") || blockInt("failurecount", d, g, 1, 1_000_000).isPresent();
        boolean quiescent = eff.containsKey("quiescent") && yesNoQuiet(eff.get("quiescent"), d, "quiescent")
                .orElse(false);
        boolean cleanStop = !eff.containsKey("cleanstop") || yesNoQuiet(eff.get("cleanstop"), d, "cleanstop")
                .orElse(true);
        Optional<String> fallbackCommand = Optional.ofNullable(eff.get("fallbackcommand"))
                .map(r -> unquote(r.value()));
        Optional<java.nio.file.Path> caFile = Optional.empty();
        // a global checkcafile applies to the TLS services; set in a block, it must be one
        if (d.containsKey("checkcafile") || eff.containsKey("checkcafile") && CaFile.isTls(service)) {
            DirectiveLine r = eff.get("checkcafile");
            caFile = CaFile.check(unquote(r.value()), service, msg -> problems.error(r.line(), msg));
            ok &= caFile.isPresent();
        }
        boolean resetCounts = eff.containsKey("resetcounts") && yesNoQuiet(eff.get("resetcounts"), d, "resetcounts")
                .orElse(false);
        int slowStart = 0;
        if (d.containsKey("slowstart")) {
            Optional<Integer> s = values.slowStart(d.get("slowstart"));
            ok &= s.isPresent();
            slowStart = s.orElse(0);
        } else if (eff.containsKey("slowstart")) {
            slowStart = blockInt("slowstart", d, g, 0, Rejoin.MAX_SLOW_START_SECONDS).orElse(0);
        }
        Optional<FallbackServer> fallback = Optional.empty();
        String fbKey = key.ipv6() ? "fallback6" : "fallback";
        if (eff.containsKey(fbKey)) {
            fallback = realLines.fallback(eff.get(fbKey), key, d.containsKey(fbKey));
            ok &= fallback.isPresent() || !d.containsKey(fbKey);
        }
        Optional<String> emailAlert = Optional.ofNullable(eff.get("emailalert")).map(r -> unquote(r.value()));
        int emailAlertFreq = blockInt("emailalertfreq", d, g, 0, Integer.MAX_VALUE).orElse(0);
        String emailAlertStatus = "all";
        if (d.containsKey("emailalertstatus")) {
            DirectiveLine r = d.get("emailalertstatus");
            if (!values.validStatus(unquote(r.value()))) {
                problems.error(r.line(), "emailalertstatus must be a comma list of all, none, starting, running,"
                        + " stopping, reloading; not '" + abbreviate(r.value()) + "'");
                ok = false;
            } else {
                emailAlertStatus = unquote(r.value()).replace(" ", "");
            }
        } else if (g.inherited.containsKey("emailalertstatus")
                && values.validStatus(unquote(g.inherited.get("emailalertstatus").value()))) {
            emailAlertStatus = unquote(g.inherited.get("emailalertstatus").value()).replace(" ", "");
        }
        if (d.containsKey("smtp")) {
            values.smtpServer(d.get("smtp"));
        }
        Optional<String> smtp = Optional.ofNullable(eff.get("smtp")).map(r -> unquote(r.value()));
        Optional<String> monitorFile = Optional.ofNullable(d.get("monitorfile")).map(r -> unquote(r.value()));
        Optional<String> serviceName = Optional.ofNullable(d.get("servicename")).map(r -> unquote(r.value()));
        Optional<String> comment = Optional.ofNullable(d.get("comment")).map(r -> unquote(r.value()));

        List<RealServer> reals = new ArrayList<>();
        for (DirectiveLine r : b.reals) {
            String[] kv = r.value().split("\u0000", 2);
            List<RealServer> parsed = realLines.real(kv[0].equals("real6"), new DirectiveLine(kv[1], r.line()), key);
            if (parsed.isEmpty()) {
                ok = false;
            }
            for (RealServer rs : parsed) {
                if (reals.stream().anyMatch(o -> o.endpoint().equals(rs.endpoint()))) {
                    problems.error(r.line(), "real server " + rs.endpoint() + " is listed twice in virtual "
                            + key.address() + "; remove one");
                    ok = false;
                } else {
                    reals.add(rs);
                }
            }
        }
        if (!ok) {
            return Optional.empty();
        }
        return Optional.of(new VirtualService(key, line, reals, scheduler, schedFlags, persistent, netmask, ops,
                checkType, service, checkPort, request, receive, httpMethod, virtualHost, login, passwd, database,
                secret, checkCommand, fallback, fallbackCommand, quiescent, cleanStop,
                Duration.ofSeconds(checkTimeout), Duration.ofSeconds(negotiateTimeout), checkInterval, checkCount,
                failureCount, emailAlert, emailAlertFreq, emailAlertStatus, smtp, monitorFile, serviceName,
                comment, caFile, new Rejoin(resetCounts, slowStart)));
    }

    /** A global integer default; its error is reported once, at its own line. */
    private Optional<Integer> globalInt(String key, LdirectordParser.GlobalDefaults g, int virtualLine) {
        DirectiveLine r = g.inherited.get(key);
        if (r == null) {
            return Optional.empty();
        }
        if (!DIGITS.matcher(r.value()).matches() || r.value().matches("0+") || r.value().length() > 9) {
            if (problems.reportedGlobals().add(key)) {
                problems.error(r.line(), key + " must be a whole number of seconds greater than 0, not '"
                        + abbreviate(r.value()) + "'");
            }
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(r.value()));
    }

    private Optional<Boolean> yesNoQuiet(DirectiveLine r, Map<String, DirectiveLine> own, String key) {
        if (own.containsKey(key) || problems.reportedGlobals().add(key)) {
            return values.yesNo(key, r);
        }
        String v = unquote(r.value()).toLowerCase(Locale.ROOT);
        return v.equals("yes") ? Optional.of(true) : v.equals("no") ? Optional.of(false) : Optional.empty();
    }

    private Optional<ServiceKey> virtualKey(LdirectordParser.Block b) {
        DirectiveLine r = b.virtual;
        String v = unquote(r.value());
        if (DIGITS.matcher(v).matches()) {
            long mark = Long.parseLong(v.length() > 10 ? "0" : v);
            if (mark < 1 || mark > 0xffffffffL) {
                problems.error(r.line(), "firewall mark must be 1-4294967295, not " + abbreviate(v));
                return Optional.empty();
            }
            return Optional.of(ServiceKey.fwmark(mark, b.v6));
        }
        Optional<Endpoint> e = addresses.endpoint(v, r.line(), b.v6, true, "virtual" + (b.v6 ? "6" : ""));
        if (e.isEmpty()) {
            return Optional.empty();
        }
        if (e.get().port() == 0) {
            problems.error(r.line(), "virtual = " + v + " needs a port (ip:port, e.g. 198.18.0.100:80); port 0 is only for"
                    + " persistent services in ipvsadm, use a firewall mark instead");
            return Optional.empty();
        }
        Protocol p = e.get().port() == 53 ? Protocol.UDP : Protocol.TCP;
        return Optional.of(ServiceKey.of(p, e.get()));
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
