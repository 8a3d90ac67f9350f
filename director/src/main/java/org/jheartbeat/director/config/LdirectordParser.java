package org.jheartbeat.director.config;

import static org.jheartbeat.director.config.LdirectordProblems.abbreviate;
import static org.jheartbeat.director.config.LdirectordValues.unquote;

import java.io.IOException;
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
 *
 * <p>This class owns the file and line syntax, where each directive may stand (by the
 * {@link LdirectordDirectives} table) and the global settings; a block becomes a virtual service in
 * {@link VirtualBlockReader}, with {@link RealServerLines}, {@link LdirectordAddresses} and
 * {@link LdirectordValues}; problems are collected by {@link LdirectordProblems}.
 */
public final class LdirectordParser {

    /** What a read gave: the config (when there are no errors) and every problem found. */
    public record Result(Optional<LdirectordConfig> config, List<ConfigDiagnostic> diagnostics) implements Diagnosed {
        public Result {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    private static final Pattern KEY_VALUE = Pattern.compile("^([A-Za-z0-9_]+)\\s*=\\s*(.*?)\\s*$");

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

    /** A block being read: its virtual= line, its own directives and its real lines. */
    static final class Block {
        final DirectiveLine virtual;
        final boolean v6;
        final Map<String, DirectiveLine> directives = new LinkedHashMap<>();
        final List<DirectiveLine> reals = new ArrayList<>();

        Block(DirectiveLine virtual, boolean v6) {
            this.virtual = virtual;
            this.v6 = v6;
        }
    }

    /** The globals, with the values every block inherits. */
    static final class GlobalDefaults {
        boolean autoReload;
        Optional<String> callback = Optional.empty();
        String logFile = "/var/log/ldirectord.log";
        boolean fork;
        boolean supervised;
        boolean readdQuiescent;
        Optional<String> emailAlertFrom = Optional.empty();
        Optional<String> maintenanceDir = Optional.empty();
        Duration checkInterval = Duration.ofSeconds(10);
        Map<String, Object> sync = new LinkedHashMap<>();
        Map<String, DirectiveLine> inherited = new LinkedHashMap<>();
    }

    /** The state of one read. */
    private final class Run {
        private final Path file;
        private final LdirectordProblems problems;
        private final List<ConfigDiagnostic> diags;
        private final LdirectordValues values;
        private final VirtualBlockReader blockReader;
        private final Map<String, DirectiveLine> globals = new LinkedHashMap<>();
        private final List<String> execute = new ArrayList<>();
        private final List<Block> blocks = new ArrayList<>();

        Run(Path file) {
            this.file = file;
            this.problems = new LdirectordProblems(file);
            this.diags = problems.diagnostics();
            this.values = new LdirectordValues(problems);
            LdirectordAddresses addresses = new LdirectordAddresses(resolver, problems);
            this.blockReader = new VirtualBlockReader(problems, values, addresses,
                    new RealServerLines(problems, values, addresses));
        }

        void error(int line, String msg) {
            problems.error(line, msg);
        }

        void warning(int line, String msg) {
            problems.warning(line, msg);
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
                Block open = current;
                if (!inBlock) {
                    current = null;
                }
                if ("supervised".equals(body) && !inBlock) {
                    warning(lineNo, "bare 'supervised' is read as 'supervised = yes'; write it so");
                    put(globals, "supervised", new DirectiveLine("yes", lineNo));
                    continue;
                }
                Matcher m = KEY_VALUE.matcher(body);
                if (!m.matches()) {
                    error(lineNo, "expected 'directive = value', found '" + abbreviate(body) + "'");
                    continue;
                }
                String key = m.group(1);
                DirectiveLine raw = new DirectiveLine(m.group(2), lineNo);
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
                current = keep(directive.get(), raw, inBlock, current, open);
            }
            GlobalDefaults g = readGlobals();
            Optional<SyncSettings> sync = SyncDirectives.settings(g.sync, globals, problems,
                    String.valueOf(file.getFileName()));
            List<VirtualService> virtuals = new ArrayList<>();
            Set<ServiceKey> seen = new java.util.HashSet<>();
            for (Block b : blocks) {
                blockReader.read(b, g).ifPresent(v -> {
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
                    g.supervised, g.readdQuiescent, g.emailAlertFrom, g.maintenanceDir, g.checkInterval, sync);
            return new Result(Optional.of(new LdirectordConfig(file, settings, virtuals)), diags);
        }

        private void put(Map<String, DirectiveLine> map, String key, DirectiveLine raw) {
            DirectiveLine old = map.put(key, raw);
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
         * @param open the block open before this line, if any
         * @return the block open after the line (a new one after {@code virtual=})
         */
        private Block keep(LdirectordDirectives.Directive directive, DirectiveLine raw, boolean inBlock, Block current,
                           Block open) {
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
                // a block line that lost its indentation: the indented lines after it still belong to the
                // block, so they draw no error of their own (one mistake, one message)
                return open;
            }
            switch (directive.keep()) {
                case REAL -> current.reals.add(new DirectiveLine(key + "\u0000" + raw.value(), lineNo));
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

        /**
         * The global lines: each value checked at its own line by its table entry; a director setting kept in
         * the defaults, a per-virtual default inherited by every block (its error reported once, here: the
         * blocks that inherit it stay quiet).
         */
        private GlobalDefaults readGlobals() {
            GlobalDefaults g = new GlobalDefaults();
            for (Map.Entry<String, DirectiveLine> e : globals.entrySet()) {
                String key = e.getKey();
                DirectiveLine r = e.getValue();
                LdirectordDirectives.Directive directive = LdirectordDirectives.of(key).orElseThrow();
                Optional<?> value = check(directive, r);
                if (directive.scope() == LdirectordDirectives.Scope.BOTH) {
                    g.inherited.put(key, r);
                    if (directive.check() != LdirectordDirectives.Check.NONE) {
                        problems.reportedGlobals().add(key);
                    }
                }
                value.ifPresent(v -> set(g, key, v));
            }
            return g;
        }

        /** The value of a line by its directive's {@link LdirectordDirectives.Check}; empty (reported) if invalid. */
        private Optional<?> check(LdirectordDirectives.Directive directive, DirectiveLine r) {
            String key = directive.name();
            return switch (directive.check()) {
                case NONE -> Optional.of(unquote(r.value()));
                case YES_NO -> values.yesNo(key, r);
                case QUOTED -> values.quoted(key, r, directive.example());
                case SECONDS -> values.seconds(key, r);
                case COUNT -> values.integer(key, r, 1, 1_000_000);
                case FREQUENCY -> values.integer(key, r, 0, Integer.MAX_VALUE);
                case SLOW_START -> values.slowStart(r);
                case ALERT_STATUS -> {
                    if (!values.validStatus(unquote(r.value()))) {
                        error(r.line(), "emailalertstatus must be a comma list of all, none, starting, running,"
                                + " stopping, reloading; not '" + abbreviate(r.value()) + "'");
                        yield Optional.empty();
                    }
                    yield Optional.of(unquote(r.value()));
                }
                case SMTP -> values.smtpServer(r) ? Optional.of(unquote(r.value())) : Optional.empty();
                case SYNC -> SyncDirectives.check(key, r, values, problems);
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
                case "syncdaemon", "syncid", "syncpeer", "syncauthkeys" -> g.sync.put(key, v);
                default -> {
                    // a per-virtual default: read with each block
                }
            }
        }

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

}
