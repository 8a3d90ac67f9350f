package org.jheartbeat.director.config;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.Diagnosed;
import org.jheartbeat.core.config.Suggestions;

/**
 * Reads ldirectord.cf as ldirectord 4.x does (Debian {@code ldirectord 1:4.12.0-2}, facts in
 * {@code shared/facts/lvs.md} §3) and reports every problem as {@code file:line: message}.
 *
 * <p>Syntax: {@code key = value} lines, {@code #} comments. A {@code virtual=} (or
 * {@code virtual6=}) line opens a block; block lines are indented by at least 4 spaces or a tab (a
 * tab counts as 4 spaces); the first line that is not indented closes it. Global directives that
 * are also per-virtual act as defaults for every block that does not set them, wherever they
 * appear in the file. Unknown directives, the removed {@code connecttimeout} and {@code timeout},
 * and malformed values are errors. Defaults are ldirectord's code defaults, not its man page's
 * ({@code quiescent = no}, {@code scheduler = wrr}, {@code checktimeout} 5 s,
 * {@code negotiatetimeout} 30 s, {@code checkinterval} 10 s, {@code failurecount} 1,
 * {@code cleanstop = yes}, {@code readdquiescent = no}).
 *
 * <p>Host and service names are resolved while reading, as ldirectord does: a name that does not
 * resolve is an error at its line.
 */
public final class LdirectordParser {

    /** What a read gave: the config (when there are no errors) and every problem found. */
    public record Result(Optional<LdirectordConfig> config, List<ConfigDiagnostic> diagnostics) implements Diagnosed {
        public Result {
            diagnostics = List.copyOf(diagnostics);
        }
    }

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
    /** Port names accepted without /etc/services (the well-known ones ldirectord configs use). */
    static final Map<String, Integer> WELL_KNOWN_PORTS = Map.ofEntries(Map.entry("ftp", 21), Map.entry("smtp", 25),
            Map.entry("domain", 53), Map.entry("http", 80), Map.entry("www", 80), Map.entry("pop3", 110),
            Map.entry("nntp", 119), Map.entry("imap", 143), Map.entry("imap2", 143), Map.entry("ldap", 389),
            Map.entry("https", 443), Map.entry("submission", 587), Map.entry("ldaps", 636),
            Map.entry("imaps", 993), Map.entry("pop3s", 995), Map.entry("mysql", 3306),
            Map.entry("sip", 5060), Map.entry("postgresql", 5432));

    private static final Pattern KEY_VALUE = Pattern.compile("^([A-Za-z0-9_]+)\\s*=\\s*(.*?)\\s*$");
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private final Function<String, Optional<InetAddress>> resolver;

    /** A parser that resolves host names with the system resolver. */
    public LdirectordParser() {
        this(LdirectordParser::systemResolve);
    }

    /**
     * A parser with its own name resolver (tests).
     *
     * @param resolver a host name's address, or empty if it does not resolve; numeric addresses
     *                 never reach it
     */
    public LdirectordParser(Function<String, Optional<InetAddress>> resolver) {
        this.resolver = resolver;
    }

    private static Optional<InetAddress> systemResolve(String name) {
        try {
            return Optional.of(InetAddress.getByName(name));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /**
     * Reads and checks one ldirectord.cf.
     *
     * @param file the file
     * @return the config (absent when there is an error) and every problem, errors and warnings
     */
    public Result parse(Path file) {
        String text;
        try {
            if (Files.isDirectory(file)) {
                return unreadable(file, "is a directory; give the path of the ldirectord.cf file");
            }
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                return unreadable(file, "is " + size + " bytes; an ldirectord.cf is limited to " + MAX_FILE_BYTES
                        + " bytes: is this the right file?");
            }
            byte[] bytes = Files.readAllBytes(file);
            for (int i = 0; i < bytes.length; i++) {
                int b = bytes[i] & 0xff;
                if ((b < 0x20 && (b < '\t' || b > '\r')) || b == 0x7f) {
                    int line = 1;
                    for (int j = 0; j < i; j++) {
                        line += bytes[j] == '\n' ? 1 : 0;
                    }
                    return new Result(Optional.empty(), List.of(ConfigDiagnostic.error(file, line, String.format(
                            "binary data (byte 0x%02X), not text: is this the right file? (an ldirectord.cf has only"
                                    + " printable characters, blanks and tabs)", b))));
                }
            }
            text = new String(bytes, StandardCharsets.ISO_8859_1);
        } catch (java.nio.file.NoSuchFileException e) {
            return unreadable(file, "no such file; give the path of the ldirectord.cf (a bare name is looked for in"
                    + " /etc/ha.d and /etc/ha.d/conf first)");
        } catch (java.nio.file.AccessDeniedException e) {
            return unreadable(file, "permission denied; run as root");
        } catch (IOException e) {
            return unreadable(file, "cannot read the file (" + e.getMessage() + "); check the path and permissions");
        }
        return parse(file, text);
    }

    /** Largest ldirectord.cf read, in bytes (1 MiB, as the ha.d files): a 70-service one is about 10 KiB. */
    static final long MAX_FILE_BYTES = 1 << 20;

    private static Result unreadable(Path file, String message) {
        return new Result(Optional.empty(), List.of(ConfigDiagnostic.error(file, 0, message)));
    }

    /**
     * Reads and checks ldirectord.cf text.
     *
     * @param file the name to report problems against
     * @param text the file's content
     * @return the config (absent when there is an error) and every problem
     */
    public Result parse(Path file, String text) {
        return new Run(file).parse(text);
    }

    /** One directive as written: its value and line. */
    private record Raw(String value, int line) { }

    /** A block being read. */
    private static final class Block {
        final Raw virtual;
        final boolean v6;
        final Map<String, Raw> directives = new LinkedHashMap<>();
        final List<Raw> reals = new ArrayList<>();

        Block(Raw virtual, boolean v6) {
            this.virtual = virtual;
            this.v6 = v6;
        }
    }

    /** The state of one read. */
    private final class Run {
        private final Path file;
        private final List<ConfigDiagnostic> diags = new ArrayList<>();
        private final Map<String, Raw> globals = new LinkedHashMap<>();
        private final List<String> execute = new ArrayList<>();
        private final List<Block> blocks = new ArrayList<>();

        Run(Path file) {
            this.file = file;
        }

        void error(int line, String msg) {
            diags.add(ConfigDiagnostic.error(file, line, msg));
        }

        void warning(int line, String msg) {
            diags.add(ConfigDiagnostic.warning(file, line, msg));
        }

        Result parse(String text) {
            String[] lines = text.split("\r?\n", -1);
            Block current = null;
            for (int i = 0; i < lines.length; i++) {
                int lineNo = i + 1;
                String line = stripComment(lines[i].replace("\t", "    "));
                if (line.isBlank()) {
                    continue;
                }
                int indent = 0;
                while (indent < line.length() && line.charAt(indent) == ' ') {
                    indent++;
                }
                String body = line.trim();
                if (indent > 0 && indent < 4) {
                    error(lineNo, "indented by " + indent + " space" + (indent == 1 ? "" : "s") + ": lines of a"
                            + " virtual= block need at least 4 spaces or a tab, global lines none; fix the indentation");
                    continue;
                }
                boolean inBlock = indent >= 4;
                if (inBlock && current == null) {
                    error(lineNo, "indented line outside a virtual= block: remove the indentation to make it a"
                            + " global directive, or put it under a virtual= line");
                    continue;
                }
                if (!inBlock) {
                    current = null;
                }
                if ("supervised".equals(body) && !inBlock) {
                    warning(lineNo, "bare 'supervised' is read as 'supervised = yes'; write it so");
                    put(globals, "supervised", new Raw("yes", lineNo));
                    continue;
                }
                Matcher m = KEY_VALUE.matcher(body);
                if (!m.matches()) {
                    error(lineNo, "expected 'directive = value', found '" + abbreviate(body) + "'");
                    continue;
                }
                String key = m.group(1);
                Raw raw = new Raw(m.group(2), lineNo);
                if (!key.equals(key.toLowerCase(Locale.ROOT)) && known(key.toLowerCase(Locale.ROOT))) {
                    error(lineNo, "directive names are lower case: write '" + key.toLowerCase(Locale.ROOT) + "'");
                    continue;
                }
                if (LdirectordDirectives.REMOVED.containsKey(key)) {
                    error(lineNo, "'" + key + "' was removed from ldirectord in favour of "
                            + LdirectordDirectives.REMOVED.get(key) + ": use 'negotiatetimeout = N' for negotiate"
                            + " checks or 'checktimeout = N' for connect checks");
                    continue;
                }
                Optional<LdirectordDirectives.Directive> directive = LdirectordDirectives.of(key);
                if (directive.isEmpty()) {
                    error(lineNo, "unknown directive '" + abbreviate(key) + "'" + Suggestions.closest(key,
                                    new java.util.TreeSet<>(LdirectordDirectives.all().keySet()))
                            .map(s -> "; did you mean '" + s + "'?").orElse("; see ldirectord(8) for the directives"));
                    continue;
                }
                current = keep(directive.get(), raw, inBlock, current);
            }
            GlobalDefaults g = readGlobals();
            List<VirtualService> virtuals = new ArrayList<>();
            Set<ServiceKey> seen = new java.util.HashSet<>();
            for (Block b : blocks) {
                readBlock(b, g).ifPresent(v -> {
                    if (!seen.add(v.key())) {
                        error(b.virtual.line(), "virtual service " + v.key().address() + " (" + v.key().protocol()
                                .configName() + ") is configured twice; merge the two blocks");
                    } else {
                        virtuals.add(v);
                    }
                });
            }
            diags.sort(java.util.Comparator.comparingInt(ConfigDiagnostic::line));
            if (diags.stream().anyMatch(ConfigDiagnostic::isError)) {
                return new Result(Optional.empty(), diags);
            }
            GlobalSettings settings = new GlobalSettings(g.autoReload, g.callback, g.logFile, execute, g.fork,
                    g.supervised, g.readdQuiescent, g.emailAlertFrom, g.maintenanceDir, g.checkInterval);
            return new Result(Optional.of(new LdirectordConfig(file, settings, virtuals)), diags);
        }

        private void put(Map<String, Raw> map, String key, Raw raw) {
            Raw old = map.put(key, raw);
            if (old != null) {
                warning(raw.line(), "'" + key + "' is set again (first at line " + old.line() + "); the last one"
                        + " counts, as in ldirectord; remove the other");
            }
        }

        private boolean known(String key) {
            return LdirectordDirectives.of(key).isPresent();
        }

        /**
         * Keeps one line of a known directive by its table entry: where it may stand (an error if not there),
         * then how its lines are kept.
         *
         * @return the block open after the line (a new one after {@code virtual=})
         */
        private Block keep(LdirectordDirectives.Directive directive, Raw raw, boolean inBlock, Block current) {
            String key = directive.name();
            int lineNo = raw.line();
            if (inBlock && directive.scope() == LdirectordDirectives.Scope.GLOBAL) {
                if (directive.keep() == LdirectordDirectives.Keep.OPENS_BLOCK) {
                    error(lineNo, "'" + key + "' is indented: a new virtual service starts at the beginning"
                            + " of the line; remove the indentation");
                } else {
                    error(lineNo, "'" + key + "' is a global directive and cannot be set inside a virtual="
                            + " block; move it before the first virtual= line, unindented");
                }
                return current;
            }
            if (!inBlock && directive.scope() == LdirectordDirectives.Scope.VIRTUAL) {
                error(lineNo, "'" + key + "' belongs inside a virtual= block: indent it by 4 spaces or a tab"
                        + " under its virtual= line");
                return current;
            }
            switch (directive.keep()) {
                case REAL -> current.reals.add(new Raw(key + "\u0000" + raw.value(), lineNo));
                case OPENS_BLOCK -> {
                    Block b = new Block(raw, "virtual6".equals(key));
                    blocks.add(b);
                    return b;
                }
                case APPEND -> execute.add(unquote(raw.value()));
                case LAST -> put(inBlock ? current.directives : globals, key, raw);
                default -> throw new IllegalStateException("keep " + directive.keep());
            }
            return current;
        }

        /** The globals, with the values every block inherits. */
        private final class GlobalDefaults {
            boolean autoReload;
            Optional<String> callback = Optional.empty();
            String logFile = "/var/log/ldirectord.log";
            boolean fork;
            boolean supervised;
            boolean readdQuiescent;
            Optional<String> emailAlertFrom = Optional.empty();
            Optional<String> maintenanceDir = Optional.empty();
            Duration checkInterval = Duration.ofSeconds(10);
            Map<String, Raw> inherited = new LinkedHashMap<>();
        }

        /**
         * The global lines: each value checked at its own line by its table entry; a director setting kept in
         * the defaults, a per-virtual default inherited by every block (its error reported once, here: the
         * blocks that inherit it stay quiet).
         */
        private GlobalDefaults readGlobals() {
            GlobalDefaults g = new GlobalDefaults();
            for (Map.Entry<String, Raw> e : globals.entrySet()) {
                String key = e.getKey();
                Raw r = e.getValue();
                LdirectordDirectives.Directive directive = LdirectordDirectives.of(key).orElseThrow();
                Optional<?> value = check(directive, r);
                if (directive.scope() == LdirectordDirectives.Scope.BOTH) {
                    g.inherited.put(key, r);
                    if (directive.check() != LdirectordDirectives.Check.NONE) {
                        reportedGlobals.add(key);
                    }
                }
                value.ifPresent(v -> set(g, key, v));
            }
            return g;
        }

        /** The value of a line by its directive's {@link LdirectordDirectives.Check}; empty (reported) if invalid. */
        private Optional<?> check(LdirectordDirectives.Directive directive, Raw r) {
            String key = directive.name();
            return switch (directive.check()) {
                case NONE -> Optional.of(unquote(r.value()));
                case YES_NO -> yesNo(key, r);
                case QUOTED -> quoted(key, r, directive.example());
                case SECONDS -> seconds(key, r);
                case COUNT -> integer(key, r, 1, 1_000_000);
                case FREQUENCY -> integer(key, r, 0, Integer.MAX_VALUE);
                case ALERT_STATUS -> {
                    if (!validStatus(unquote(r.value()))) {
                        error(r.line(), "emailalertstatus must be a comma list of all, none, starting, running,"
                                + " stopping, reloading; not '" + abbreviate(r.value()) + "'");
                        yield Optional.empty();
                    }
                    yield Optional.of(unquote(r.value()));
                }
                case SMTP -> smtpServer(r) ? Optional.of(unquote(r.value())) : Optional.empty();
            };
        }

        /** Keeps a valid value of a director setting; the per-virtual defaults are read per block. */
        private void set(GlobalDefaults g, String key, Object v) {
            switch (key) {
                case "autoreload" -> g.autoReload = (Boolean) v;
                case "fork" -> g.fork = (Boolean) v;
                case "supervised" -> g.supervised = (Boolean) v;
                case "readdquiescent" -> g.readdQuiescent = (Boolean) v;
                case "callback" -> g.callback = Optional.of((String) v);
                case "logfile" -> g.logFile = (String) v;
                case "emailalertfrom" -> g.emailAlertFrom = Optional.of((String) v);
                case "maintenancedir" -> g.maintenanceDir = Optional.of((String) v);
                case "checkinterval" -> g.checkInterval = (Duration) v;
                default -> {
                    // a per-virtual default: read with each block
                }
            }
        }

        /** {@code none} only alone, as ldirectord 4.x's {@code parse_emailalertstatus}. */
        private boolean validStatus(String v) {
            Set<String> words = Set.of("all", "none", "starting", "running", "stopping", "reloading");
            String s = v.replace(" ", "");
            List<String> list = List.of(s.split(","));
            return !s.isEmpty() && list.stream().allMatch(words::contains)
                    && (!list.contains("none") || list.size() == 1);
        }

        /** {@code smtp = host[:port]} (or {@code [v6]:port}): the port must be a number in 1..65535. */
        private boolean smtpServer(Raw r) {
            try {
                org.jheartbeat.director.alert.SmtpClient.parse(unquote(r.value()));
                return true;
            } catch (IllegalArgumentException e) {
                error(r.line(), e.getMessage() + "; write smtp = HOST or HOST:PORT");
                return false;
            }
        }

        /** A number set in the block (errors reported) or inherited (already checked, quiet). */
        private Optional<Integer> blockInt(String key, Map<String, Raw> own, GlobalDefaults g, int min, int max) {
            if (own.containsKey(key)) {
                return integer(key, own.get(key), min, max);
            }
            Raw r = g.inherited.get(key);
            if (r == null) {
                return Optional.empty();
            }
            String v = unquote(r.value());
            if (!DIGITS.matcher(v).matches() || v.length() > 9 || Integer.parseInt(v) < min || Integer.parseInt(v) > max) {
                return Optional.empty();
            }
            return Optional.of(Integer.parseInt(v));
        }

        private Optional<VirtualService> readBlock(Block b, GlobalDefaults g) {
            int line = b.virtual.line();
            Optional<ServiceKey> parsedKey = virtualKey(b);
            if (parsedKey.isEmpty()) {
                return Optional.empty();
            }
            ServiceKey key = parsedKey.get();
            Map<String, Raw> d = b.directives;
            boolean ok = true;

            // protocol: tcp by default (udp for port 53), fwm for a mark; a mismatch is an error
            if (d.containsKey("protocol")) {
                Raw r = d.get("protocol");
                Optional<Protocol> p = Protocol.fromConfig(unquote(r.value()));
                if (p.isEmpty()) {
                    error(r.line(), "protocol must be tcp, udp or fwm, not '" + abbreviate(r.value()) + "'");
                    ok = false;
                } else if ((p.get() == Protocol.FWM) != (key.protocol() == Protocol.FWM)) {
                    error(r.line(), "protocol = " + p.get().configName() + " does not fit virtual = "
                            + b.virtual.value() + ": use fwm for a firewall mark, tcp or udp for ip:port");
                    ok = false;
                } else if (key.protocol() != Protocol.FWM) {
                    key = ServiceKey.of(p.get(), key.endpoint().orElseThrow());
                }
            }
            String scheduler = d.containsKey("scheduler") ? unquote(d.get("scheduler").value()) : "wrr";
            if (d.containsKey("scheduler")) {
                if (!scheduler.matches("[a-z]+")) {
                    error(d.get("scheduler").line(), "scheduler must be a word of lower-case letters such as wrr, lc"
                            + " or wlc, not '" + abbreviate(scheduler) + "'");
                    ok = false;
                } else if (!KNOWN_SCHEDULERS.contains(scheduler)) {
                    warning(d.get("scheduler").line(), "scheduler '" + scheduler + "' is not one ipvsadm 1.31 knows ("
                            + String.join("|", new java.util.TreeSet<>(KNOWN_SCHEDULERS)) + "); the kernel will refuse"
                            + " it unless a module provides it");
                }
            }
            Optional<String> schedFlags = Optional.ofNullable(d.get("schedflags")).map(r -> unquote(r.value()));
            Optional<Integer> persistent = Optional.empty();
            if (d.containsKey("persistent")) {
                Optional<Integer> p = integer("persistent", d.get("persistent"), 1, 31 * 24 * 3600);
                ok &= p.isPresent();
                persistent = p;
            }
            Optional<String> netmask = Optional.empty();
            if (d.containsKey("netmask")) {
                Raw r = d.get("netmask");
                String v = unquote(r.value());
                boolean valid = key.ipv6() ? DIGITS.matcher(v).matches() && Integer.parseInt(v) >= 1
                        && Integer.parseInt(v) <= 128 : isNetmask(v);
                if (!valid) {
                    error(r.line(), "netmask must be " + (key.ipv6() ? "a prefix length 1-128" : "a dotted netmask"
                            + " such as 255.255.255.0") + ", not '" + abbreviate(v) + "'");
                    ok = false;
                } else {
                    netmask = Optional.of(v);
                    if (persistent.isEmpty()) {
                        warning(r.line(), "netmask has no effect without persistent (ldirectord passes -M only with"
                                + " -p); add 'persistent = N' or remove it");
                    }
                }
            }
            boolean ops = false;
            if (d.containsKey("ops")) {
                Optional<Boolean> o = yesNo("ops", d.get("ops"));
                ok &= o.isPresent();
                ops = o.orElse(false);
                if (ops && key.protocol() != Protocol.UDP) {
                    error(d.get("ops").line(), "ops = yes (one-packet scheduling) applies to UDP services only;"
                            + " remove it or set protocol = udp");
                    ok = false;
                }
            }
            String checkType = "negotiate";
            if (d.containsKey("checktype")) {
                Raw r = d.get("checktype");
                String v = unquote(r.value()).toLowerCase(Locale.ROOT);
                Set<String> types = Set.of("negotiate", "connect", "ping", "external", "external-perl", "off", "on");
                if ("negotiate_connect".equals(v)) {
                    error(r.line(), "checktype negotiate_connect is not a keyword of ldirectord 4.x: use a number N"
                            + " (a negotiate check after every N connect checks)");
                    ok = false;
                } else if (!types.contains(v) && !(DIGITS.matcher(v).matches() && !v.matches("0+"))) {
                    error(r.line(), "checktype must be one of negotiate, connect, ping, external, external-perl, off,"
                            + " on or a number, not '" + abbreviate(v) + "'");
                    ok = false;
                } else {
                    checkType = v;
                }
            }
            String service = key.protocol() == Protocol.FWM ? "none"
                    : SERVICE_BY_PORT.getOrDefault(key.port(), "none");
            if (d.containsKey("service")) {
                Raw r = d.get("service");
                String v = unquote(r.value()).toLowerCase(Locale.ROOT);
                if (!SERVICES.contains(v)) {
                    error(r.line(), "unknown service '" + abbreviate(v) + "'" + Suggestions.closest(v, SERVICES)
                            .map(s -> "; did you mean '" + s + "'?")
                            .orElse("; use one of " + String.join(" ", new java.util.TreeSet<>(SERVICES))));
                    ok = false;
                } else {
                    service = v;
                }
            }
            Optional<Integer> checkPort = Optional.empty();
            if (d.containsKey("checkport")) {
                checkPort = integer("checkport", d.get("checkport"), 1, 65535);
                ok &= checkPort.isPresent();
            }
            Optional<String> request = quotedOpt("request", d);
            Optional<String> receive = quotedOpt("receive", d);
            ok &= !d.containsKey("request") || request.isPresent();
            ok &= !d.containsKey("receive") || receive.isPresent();
            if (receive.isPresent()) {
                ok &= regex(receive.get(), d.get("receive").line());
            }
            if (request.isPresent() && service.startsWith("http") && !service.equals("http_proxy")
                    && !request.get().startsWith("/")) {
                request = Optional.of("/" + request.get());
            }
            String httpMethod = "GET";
            if (d.containsKey("httpmethod")) {
                String v = unquote(d.get("httpmethod").value()).toUpperCase(Locale.ROOT);
                if (!v.equals("GET") && !v.equals("HEAD")) {
                    error(d.get("httpmethod").line(), "httpmethod must be GET or HEAD, not '" + abbreviate(v) + "'");
                    ok = false;
                } else {
                    httpMethod = v;
                    if (v.equals("HEAD") && receive.isPresent()) {
                        warning(d.get("httpmethod").line(), "httpmethod = HEAD returns no body, so receive can never"
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
                error(line, "service = " + service + " with checktype = negotiate needs request = \"SELECT ...\""
                        + " (a query that returns at least one row)");
                ok = false;
            }

            // per-virtual settings with global defaults
            Map<String, Raw> eff = new LinkedHashMap<>(g.inherited);
            eff.putAll(d);
            Optional<Integer> vCheckTimeout = d.containsKey("checktimeout")
                    ? integer("checktimeout", d.get("checktimeout"), 1, Integer.MAX_VALUE) : Optional.empty();
            Optional<Integer> vNegTimeout = d.containsKey("negotiatetimeout")
                    ? integer("negotiatetimeout", d.get("negotiatetimeout"), 1, Integer.MAX_VALUE) : Optional.empty();
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
                Optional<Duration> ci = seconds("checkinterval", d.get("checkinterval"));
                ok &= ci.isPresent();
                if (ci.isPresent()) {
                    if (g.fork) {
                        checkInterval = ci.get();
                    } else {
                        warning(d.get("checkinterval").line(), "a per-virtual checkinterval only takes effect with"
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
            Optional<FallbackServer> fallback = Optional.empty();
            String fbKey = key.ipv6() ? "fallback6" : "fallback";
            if (eff.containsKey(fbKey)) {
                fallback = fallback(eff.get(fbKey), key, d.containsKey(fbKey));
                ok &= fallback.isPresent() || !d.containsKey(fbKey);
            }
            Optional<String> emailAlert = Optional.ofNullable(eff.get("emailalert")).map(r -> unquote(r.value()));
            int emailAlertFreq = blockInt("emailalertfreq", d, g, 0, Integer.MAX_VALUE).orElse(0);
            String emailAlertStatus = "all";
            if (d.containsKey("emailalertstatus")) {
                Raw r = d.get("emailalertstatus");
                if (!validStatus(unquote(r.value()))) {
                    error(r.line(), "emailalertstatus must be a comma list of all, none, starting, running,"
                            + " stopping, reloading; not '" + abbreviate(r.value()) + "'");
                    ok = false;
                } else {
                    emailAlertStatus = unquote(r.value()).replace(" ", "");
                }
            } else if (g.inherited.containsKey("emailalertstatus")
                    && validStatus(unquote(g.inherited.get("emailalertstatus").value()))) {
                emailAlertStatus = unquote(g.inherited.get("emailalertstatus").value()).replace(" ", "");
            }
            if (d.containsKey("smtp")) {
                smtpServer(d.get("smtp"));
            }
            Optional<String> smtp = Optional.ofNullable(eff.get("smtp")).map(r -> unquote(r.value()));
            Optional<String> monitorFile = Optional.ofNullable(d.get("monitorfile")).map(r -> unquote(r.value()));
            Optional<String> serviceName = Optional.ofNullable(d.get("servicename")).map(r -> unquote(r.value()));
            Optional<String> comment = Optional.ofNullable(d.get("comment")).map(r -> unquote(r.value()));

            List<RealServer> reals = new ArrayList<>();
            for (Raw r : b.reals) {
                String[] kv = r.value().split("\u0000", 2);
                List<RealServer> parsed = real(kv[0].equals("real6"), new Raw(kv[1], r.line()), key);
                if (parsed.isEmpty()) {
                    ok = false;
                }
                for (RealServer rs : parsed) {
                    if (reals.stream().anyMatch(o -> o.endpoint().equals(rs.endpoint()))) {
                        error(r.line(), "real server " + rs.endpoint() + " is listed twice in virtual "
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
                    comment));
        }

        /** A global integer default; its error is reported once, at its own line. */
        private final Set<String> reportedGlobals = new java.util.HashSet<>();

        private Optional<Integer> globalInt(String key, GlobalDefaults g, int virtualLine) {
            Raw r = g.inherited.get(key);
            if (r == null) {
                return Optional.empty();
            }
            if (!DIGITS.matcher(r.value()).matches() || r.value().matches("0+") || r.value().length() > 9) {
                if (reportedGlobals.add(key)) {
                    error(r.line(), key + " must be a whole number of seconds greater than 0, not '"
                            + abbreviate(r.value()) + "'");
                }
                return Optional.empty();
            }
            return Optional.of(Integer.parseInt(r.value()));
        }

        private Optional<Boolean> yesNoQuiet(Raw r, Map<String, Raw> own, String key) {
            if (own.containsKey(key) || reportedGlobals.add(key)) {
                return yesNo(key, r);
            }
            String v = unquote(r.value()).toLowerCase(Locale.ROOT);
            return v.equals("yes") ? Optional.of(true) : v.equals("no") ? Optional.of(false) : Optional.empty();
        }

        private Optional<ServiceKey> virtualKey(Block b) {
            Raw r = b.virtual;
            String v = unquote(r.value());
            if (DIGITS.matcher(v).matches()) {
                long mark = Long.parseLong(v.length() > 10 ? "0" : v);
                if (mark < 1 || mark > 0xffffffffL) {
                    error(r.line(), "firewall mark must be 1-4294967295, not " + abbreviate(v));
                    return Optional.empty();
                }
                return Optional.of(ServiceKey.fwmark(mark, b.v6));
            }
            Optional<Endpoint> e = endpoint(v, r.line(), b.v6, true, "virtual" + (b.v6 ? "6" : ""));
            if (e.isEmpty()) {
                return Optional.empty();
            }
            if (e.get().port() == 0) {
                error(r.line(), "virtual = " + v + " needs a port (ip:port, e.g. 198.18.0.100:80); port 0 is only for"
                        + " persistent services in ipvsadm, use a firewall mark instead");
                return Optional.empty();
            }
            Protocol p = e.get().port() == 53 ? Protocol.UDP : Protocol.TCP;
            return Optional.of(ServiceKey.of(p, e.get()));
        }

        /**
         * {@code host:port}, {@code [v6]:port}; with {@code portRequired} false the port may be
         * omitted (0).
         */
        private Optional<Endpoint> endpoint(String text, int line, boolean v6, boolean portRequired, String what) {
            String host;
            String port = null;
            if (text.startsWith("[")) {
                int close = text.indexOf(']');
                if (close < 0) {
                    error(line, what + ": '" + abbreviate(text) + "' has '[' without ']'; write [address]:port");
                    return Optional.empty();
                }
                host = text.substring(1, close);
                String rest = text.substring(close + 1);
                if (!rest.isEmpty()) {
                    if (!rest.startsWith(":")) {
                        error(line, what + ": expected ':port' after ']' in '" + abbreviate(text) + "'");
                        return Optional.empty();
                    }
                    port = rest.substring(1);
                }
            } else {
                int colon = text.lastIndexOf(':');
                if (colon >= 0 && text.indexOf(':') != colon) {
                    error(line, what + ": IPv6 address '" + abbreviate(text) + "' must be bracketed: [address]:port");
                    return Optional.empty();
                }
                host = colon >= 0 ? text.substring(0, colon) : text;
                port = colon >= 0 ? text.substring(colon + 1) : null;
            }
            if (port == null && portRequired) {
                error(line, what + " = " + abbreviate(text) + " has no port; write address:port (e.g. "
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
                    error(line, what + ": port " + abbreviate(text) + " is out of range 0-65535");
                    return Optional.empty();
                }
                return Optional.of(p);
            }
            Integer known = WELL_KNOWN_PORTS.get(text.toLowerCase(Locale.ROOT));
            if (known == null) {
                known = etcServices().get(text.toLowerCase(Locale.ROOT));
            }
            if (known == null) {
                error(line, what + ": unknown port name '" + abbreviate(text) + "'; use a number or a name from"
                        + " /etc/services");
                return Optional.empty();
            }
            return Optional.of(known);
        }

        private Optional<InetAddress> address(String host, int line, boolean v6, String what) {
            if (host.isEmpty()) {
                error(line, what + ": the address is missing; write address:port");
                return Optional.empty();
            }
            Matcher m = IPV4.matcher(host);
            Optional<InetAddress> a;
            if (m.matches()) {
                for (int i = 1; i <= 4; i++) {
                    if (Integer.parseInt(m.group(i)) > 255) {
                        error(line, what + ": '" + host + "' is not an IPv4 address (each part is 0-255)");
                        return Optional.empty();
                    }
                }
                a = literal(host);
            } else if (host.indexOf(':') >= 0) {
                a = literal(host);
                if (a.isEmpty()) {
                    error(line, what + ": '" + abbreviate(host) + "' is not an IPv6 address");
                    return Optional.empty();
                }
            } else if (host.matches("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")) {
                a = resolver.apply(host);
                if (a.isEmpty()) {
                    error(line, what + ": host name '" + abbreviate(host) + "' does not resolve; use its address or"
                            + " fix /etc/hosts or DNS");
                    return Optional.empty();
                }
            } else {
                error(line, what + ": '" + abbreviate(host) + "' is neither an address nor a host name");
                return Optional.empty();
            }
            InetAddress addr = a.orElseThrow();
            if (v6 && !(addr instanceof Inet6Address)) {
                error(line, what + ": " + host + " is not an IPv6 address; use the IPv4 form of the directive");
                return Optional.empty();
            }
            if (!v6 && !(addr instanceof Inet4Address)) {
                error(line, what + ": " + host + " is an IPv6 address; use virtual6/real6/fallback6 with [address]");
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

        /** {@code real = HOST[->HOST2][:PORT] gate|masq|ipip [WEIGHT] ["request", "receive"] [l:N] [u:N]}. */
        private List<RealServer> real(boolean v6, Raw r, ServiceKey key) {
            String what = v6 ? "real6" : "real";
            List<String> tokens = tokens(r.value(), r.line(), what);
            if (tokens == null) {
                return List.of();
            }
            if (tokens.size() < 2) {
                error(r.line(), what + " = " + abbreviate(r.value()) + ": expected 'address[:port] gate|masq|ipip"
                        + " [weight]'; the forwarding method is required");
                return List.of();
            }
            String target = tokens.get(0);
            Optional<Forward> fwd = Forward.fromConfig(tokens.get(1));
            if (fwd.isEmpty()) {
                error(r.line(), what + ": forwarding method must be gate, masq or ipip, not '"
                        + abbreviate(tokens.get(1)) + "'");
                return List.of();
            }
            int weight = 1;
            Optional<String> request = Optional.empty();
            Optional<String> receive = Optional.empty();
            int lower = 0;
            int upper = 0;
            int quotedSeen = 0;
            for (int i = 2; i < tokens.size(); i++) {
                String t = tokens.get(i);
                if (t.startsWith("\"")) {
                    String v = t.substring(1, t.length() - 1);
                    if (quotedSeen == 0) {
                        request = Optional.of(v);
                    } else if (quotedSeen == 1) {
                        receive = Optional.of(v);
                        if (!regex(v, r.line())) {
                            return List.of();
                        }
                    } else {
                        error(r.line(), what + ": at most two quoted strings (\"request\", \"receive\") may follow");
                        return List.of();
                    }
                    quotedSeen++;
                } else if (i == 2 && DIGITS.matcher(t).matches()) {
                    if (t.length() > 10 || Long.parseLong(t) > Integer.MAX_VALUE) {
                        error(r.line(), what + ": weight " + abbreviate(t) + " is out of range 0-2147483647");
                        return List.of();
                    }
                    weight = Integer.parseInt(t);
                } else if (t.matches("[lu]:[0-9]+")) {
                    int n = t.length() > 7 ? 70000 : Integer.parseInt(t.substring(2));
                    if (n > 65535) {
                        error(r.line(), what + ": threshold " + t + " is out of range 0-65535");
                        return List.of();
                    }
                    if (t.charAt(0) == 'l') {
                        lower = n;
                    } else {
                        upper = n;
                    }
                } else {
                    error(r.line(), what + ": unexpected '" + abbreviate(t) + "'; after the forwarding method come"
                            + " an optional weight, an optional \"request\", \"receive\" pair and l:N / u:N thresholds");
                    return List.of();
                }
            }
            if (quotedSeen == 1) {
                error(r.line(), what + ": a per-real \"request\" needs its \"receive\": write \"request\", \"receive\"");
                return List.of();
            }
            // range A->B (IPv4 only)
            String first = target;
            String last = null;
            String portPart = null;
            int arrow = target.indexOf("->");
            if (arrow >= 0) {
                if (v6) {
                    error(r.line(), "real6: address ranges (A->B) are not supported for IPv6; list each real");
                    return List.of();
                }
                first = target.substring(0, arrow);
                String rest = target.substring(arrow + 2);
                int colon = rest.indexOf(':');
                last = colon >= 0 ? rest.substring(0, colon) : rest;
                portPart = colon >= 0 ? rest.substring(colon) : "";
                first = first + portPart;
            }
            Optional<Endpoint> e = endpoint(first, r.line(), v6, false, what);
            if (e.isEmpty()) {
                return List.of();
            }
            int port = e.get().port();
            if (port == 0 && key.protocol() != Protocol.FWM) {
                port = key.port();
            }
            if (fwd.get() != Forward.MASQ && key.protocol() != Protocol.FWM && port != key.port()) {
                warning(r.line(), what + ": port " + port + " differs from the virtual port " + key.port() + "; with "
                        + fwd.get().configName() + " the kernel always uses the virtual port (only masq maps ports)");
            }
            List<Endpoint> endpoints = new ArrayList<>();
            if (last == null) {
                endpoints.add(e.get().withPort(port));
            } else {
                Optional<InetAddress> end = address(last, r.line(), false, what);
                if (end.isEmpty()) {
                    return List.of();
                }
                long a = toLong(e.get().address());
                long b = toLong(end.get());
                if (b < a) {
                    error(r.line(), what + ": range " + target + " ends before it starts; write LOW->HIGH");
                    return List.of();
                }
                if (b - a >= 65536) {
                    error(r.line(), what + ": range " + target + " has more than 65536 addresses; split it");
                    return List.of();
                }
                for (long x = a; x <= b; x++) {
                    endpoints.add(new Endpoint(fromLong(x), port));
                }
            }
            List<RealServer> out = new ArrayList<>();
            for (Endpoint ep : endpoints) {
                out.add(new RealServer(ep, fwd.get(), weight, request, receive, lower, upper, r.line()));
            }
            return out;
        }

        private Optional<FallbackServer> fallback(Raw r, ServiceKey key, boolean own) {
            String what = key.ipv6() ? "fallback6" : "fallback";
            List<String> tokens = tokens(r.value(), r.line(), what);
            if (tokens == null || tokens.isEmpty() || tokens.size() > 2) {
                if (own || reportedGlobals.add(what)) {
                    error(r.line(), what + " = " + abbreviate(r.value()) + ": expected 'address[:port]"
                            + " [gate|masq|ipip]'");
                }
                return Optional.empty();
            }
            Forward f = Forward.GATE;
            if (tokens.size() == 2) {
                Optional<Forward> fw = Forward.fromConfig(tokens.get(1));
                if (fw.isEmpty()) {
                    if (own || reportedGlobals.add(what)) {
                        error(r.line(), what + ": forwarding method must be gate, masq or ipip, not '"
                                + abbreviate(tokens.get(1)) + "'");
                    }
                    return Optional.empty();
                }
                f = fw.get();
            }
            int before = diags.size();
            Optional<Endpoint> e = endpoint(tokens.get(0), r.line(), key.ipv6(), false, what);
            if (e.isEmpty()) {
                if (!own && !reportedGlobals.add(what)) {
                    while (diags.size() > before) {
                        diags.remove(diags.size() - 1);
                    }
                }
                return Optional.empty();
            }
            Endpoint ep = e.get().port() == 0 ? e.get().withPort(key.port()) : e.get();
            return Optional.of(new FallbackServer(ep, f));
        }

        /** Splits on blanks and commas, keeping "quoted strings" (with their quotes) whole. */
        private List<String> tokens(String text, int line, String what) {
            List<String> out = new ArrayList<>();
            int i = 0;
            while (i < text.length()) {
                char c = text.charAt(i);
                if (c == ' ' || c == ',') {
                    i++;
                } else if (c == '"') {
                    int end = text.indexOf('"', i + 1);
                    if (end < 0) {
                        error(line, what + ": a quoted string is not closed; add the closing \"");
                        return null;
                    }
                    out.add(text.substring(i, end + 1));
                    i = end + 1;
                } else {
                    int j = i;
                    while (j < text.length() && text.charAt(j) != ' ' && text.charAt(j) != ',') {
                        j++;
                    }
                    out.add(text.substring(i, j));
                    i = j;
                }
            }
            return out;
        }

        private Optional<Boolean> yesNo(String key, Raw r) {
            String v = unquote(r.value()).toLowerCase(Locale.ROOT);
            if (v.equals("yes")) {
                return Optional.of(true);
            }
            if (v.equals("no")) {
                return Optional.of(false);
            }
            error(r.line(), key + " must be yes or no, not '" + abbreviate(r.value()) + "'");
            return Optional.empty();
        }

        private Optional<String> quoted(String key, Raw r, String example) {
            String v = r.value();
            if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                return Optional.of(v.substring(1, v.length() - 1));
            }
            error(r.line(), key + " takes a quoted value, as ldirectord requires: " + example);
            return Optional.empty();
        }

        private Optional<String> quotedOpt(String key, Map<String, Raw> d) {
            Raw r = d.get(key);
            return r == null ? Optional.empty() : quoted(key, r, key + " = \"" + ("request".equals(key) ? "/index.html"
                    : "Welcome") + "\"");
        }

        private boolean regex(String v, int line) {
            try {
                Pattern.compile(v);
                return true;
            } catch (java.util.regex.PatternSyntaxException e) {
                error(line, "receive \"" + abbreviate(v) + "\" is not a valid regular expression ("
                        + e.getDescription() + "); fix or escape it");
                return false;
            }
        }

        private Optional<Integer> integer(String key, Raw r, int min, int max) {
            String v = unquote(r.value());
            if (!DIGITS.matcher(v).matches() || v.length() > 10 || Long.parseLong(v) < min || Long.parseLong(v) > max) {
                error(r.line(), key + " must be a whole number " + (max == Integer.MAX_VALUE ? "of at least " + min
                        : "from " + min + " to " + max) + ", not '" + abbreviate(r.value()) + "'");
                return Optional.empty();
            }
            return Optional.of(Integer.parseInt(v));
        }

        private Optional<Duration> seconds(String key, Raw r) {
            String v = unquote(r.value());
            if (!DIGITS.matcher(v).matches() || v.length() > 9 || Long.parseLong(v) < 1) {
                error(r.line(), key + " must be a whole number of seconds greater than 0, not '"
                        + abbreviate(r.value()) + "'");
                return Optional.empty();
            }
            return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
        }
    }

    private static boolean isNetmask(String v) {
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

    private static long toLong(InetAddress a) {
        byte[] b = a.getAddress();
        long v = 0;
        for (byte x : b) {
            v = v << 8 | (x & 0xff);
        }
        return v;
    }

    private static InetAddress fromLong(long v) {
        byte[] b = {(byte) (v >> 24), (byte) (v >> 16), (byte) (v >> 8), (byte) v};
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Removes surrounding double quotes, if any. */
    static String unquote(String v) {
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    /** Drops a {@code #} comment: at the start of the line or after a blank, outside quotes. */
    static String stripComment(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '#' && !quoted && (i == 0 || line.charAt(i - 1) == ' ')) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
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
