package org.jheartbeat.cli.migrate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.cli.migrate.MigrationFinding.Severity;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.DirectiveTable;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaCf;
import org.jheartbeat.core.config.MediumDecl;

/**
 * The ha.cf part of {@code hb migrate check}, a pure kernel: each line's directive is looked up in {@link
 * DirectiveTable} (what jheartbeat implements) and the parser's own diagnostic for that line says what jheartbeat
 * does with it; {@link #NOTES} adds how much it matters and what to do. Then the unsafe settings of the whole file.
 * Sources: Heartbeat 3.0.6 ha.cf(5) and {@code config.c}, facts F.2; jheartbeat's {@code HaCfParser},
 * {@code ConfigValidator} and {@code AuthkeysPolicy}.
 */
public final class HaCfFindings {
    private HaCfFindings() {
    }

    /** How much a directive jheartbeat ignores or maps matters, and what to do about it. */
    record Note(Severity severity, String todo) { }

    private static final String REMOVE = "remove the line (harmless if left: it is ignored)";
    private static final String SYSTEMD = "set it in the jheartbeat systemd unit instead (LimitCORE=,"
            + " CPUSchedulingPolicy=, ...) if you need it; remove the line";

    /** Directives with a note of their own; any other directive the parser warns about is {@code info}. */
    static final Map<String, Note> NOTES = Map.ofEntries(
            Map.entry("use_logd", new Note(Severity.CHANGES, "there is no logd: jheartbeat writes logfile, debugfile"
                    + " and logfacility itself; set those and remove use_logd")),
            Map.entry("conn_logd_time", new Note(Severity.INFO, REMOVE)),
            Map.entry("respawn", new Note(Severity.CHANGES, "run the program as a systemd service of its own")),
            Map.entry("failfast", new Note(Severity.CHANGES, "run the program as a systemd service; a reboot on its"
                    + " death is not done")),
            Map.entry("apiauth", new Note(Severity.INFO, REMOVE)),
            Map.entry("compression", new Note(Severity.INFO, REMOVE)),
            Map.entry("compression_threshold", new Note(Severity.INFO, REMOVE)),
            Map.entry("traditional_compression", new Note(Severity.INFO, REMOVE)),
            Map.entry("coredumps", new Note(Severity.INFO, SYSTEMD)),
            Map.entry("coreroot", new Note(Severity.INFO, SYSTEMD)),
            Map.entry("realtime", new Note(Severity.INFO, SYSTEMD)),
            Map.entry("rtprio", new Note(Severity.INFO, SYSTEMD)),
            Map.entry("memreserve", new Note(Severity.INFO, SYSTEMD)),
            Map.entry("uuidfrom", new Note(Severity.INFO, "nothing: jheartbeat knows nodes by name (uname -n);"
                    + " remove the line")),
            Map.entry("hbgenmethod", new Note(Severity.INFO, REMOVE)),
            Map.entry("autojoin", new Note(Severity.INFO, "nothing: only the two node lines may join; remove the line")),
            Map.entry("debug", new Note(Severity.INFO, "use debugfile for debug lines; remove the line")),
            Map.entry("msgfmt", new Note(Severity.INFO, REMOVE)),
            Map.entry("mcast6", new Note(Severity.CHANGES, "this link is not used: add an IPv4 ucast/bcast/mcast or"
                    + " serial link in its place")),
            Map.entry("ucast6", new Note(Severity.CHANGES, "this link is not used: add an IPv4 ucast/bcast/mcast or"
                    + " serial link in its place")),
            Map.entry("ping6", new Note(Severity.CHANGES, "this ping node is not used: name an IPv4 one")),
            Map.entry("node", new Note(Severity.REFUSED, "jheartbeat runs exactly two nodes: keep two node lines, or"
                    + " stay on (or move to) Pacemaker for more")),
            Map.entry("crm", new Note(Severity.REFUSED, "jheartbeat runs haresources (R1) only: a crm pair stays on"
                    + " Pacemaker")),
            Map.entry("pacemaker", new Note(Severity.REFUSED, "jheartbeat runs haresources (R1) only: a crm pair stays"
                    + " on Pacemaker")),
            Map.entry("auto_failback", new Note(Severity.UNSAFE, "write 'auto_failback on' (what legacy does here) or"
                    + " 'off' on both nodes")));

    /**
     * @param haCfFile    the ha.cf path, for findings
     * @param lines       its physical lines
     * @param haCf        the parse (lines with errors left out)
     * @param diagnostics every diagnostic the loader gave for ha.cf
     * @param keys        the authkeys, if they parsed
     * @param authFile    the authkeys path, for findings
     * @param claimed     receives the ha.cf lines whose errors became a {@code refused} finding (not parse errors)
     * @return the findings in line order, then the whole-file ones
     */
    public static List<MigrationFinding> check(Path haCfFile, List<String> lines, HaCf haCf,
                                               List<ConfigDiagnostic> diagnostics, Optional<AuthKeys> keys,
                                               Path authFile, Set<Integer> claimed) {
        List<MigrationFinding> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int line = i + 1;
            Optional<DirectiveTable> row = keyword(lines.get(i)).flatMap(DirectiveTable::lookup);
            if (row.isEmpty()) {
                continue; // blank, comment, continuation, or an illegal directive: the parse error says it
            }
            String kw = row.get().keyword();
            Note note = NOTES.getOrDefault(kw, new Note(Severity.INFO, row.get().implemented() ? "" : REMOVE));
            for (ConfigDiagnostic d : diagnostics) {
                if (d.line() != line || !d.file().equals(haCfFile)) {
                    continue;
                }
                if (d.isError()) {
                    if (note.severity() == Severity.REFUSED || d.message().contains("too small compared")) {
                        out.add(new MigrationFinding(haCfFile, line, Severity.REFUSED, d.message(), note.severity()
                                == Severity.REFUSED ? note.todo() : "make deadtime more than twice keepalive"));
                        claimed.add(line);
                    }
                } else if (!kw.equals("auto_failback") && !kw.equals("node")) {
                    out.add(new MigrationFinding(haCfFile, line, note.severity(), d.message(), note.todo()));
                }
            }
        }
        haCf.ipfailLine().ifPresent(line -> out.add(new MigrationFinding(haCfFile, line, Severity.CHANGES, "ipfail is"
                + " not started: its rule is built in (a node that sees fewer ping nodes than its peer hands its groups"
                + " over)", "nothing, if the ping lines stay; the respawn line may stay")));
        unsafe(haCfFile, haCf, keys, authFile, out);
        out.sort(java.util.Comparator.comparingInt(MigrationFinding::line)); // stable: a line's findings keep their order
        return out;
    }

    private static void unsafe(Path haCfFile, HaCf haCf, Optional<AuthKeys> keys, Path authFile,
                               List<MigrationFinding> out) {
        if (haCf.autoFailback().map(s -> s.value() == FailbackPolicy.LEGACY).orElse(true)) {
            int line = haCf.autoFailback().map(HaCf.Setting::line).orElse(0);
            out.add(new MigrationFinding(haCfFile, line, Severity.UNSAFE, "auto_failback legacy ("
                    + (line == 0 ? "Heartbeat's default, no auto_failback line" : "deprecated") + ") is run as 'on',"
                    + " while Heartbeat decided per group by which node started first", NOTES.get("auto_failback")
                    .todo()));
        }
        if (haCf.stonith().isEmpty()) {
            out.add(new MigrationFinding(haCfFile, 0, Severity.UNSAFE, "no stonith or stonith_host line: a node"
                    + " that stops answering but still runs its groups is taken over anyway, and both run them",
                    "configure a STONITH device (stonith_host * TYPE PARAMS, see hb stonith), or keep a serial or"
                    + " crossover link beside the network one"));
        }
        List<MediumDecl> media = haCf.media();
        if (media.size() == 1) {
            out.add(new MigrationFinding(haCfFile, media.get(0).line(), Severity.UNSAFE, "a single link ("
                    + media.get(0).linkName() + "): when it fails, each node thinks the other dead and both run every"
                    + " group", "add a second link on another interface (a crossover cable or a serial line)"));
        }
        if (keys.isPresent() && keys.get().signingKey().method() == AuthMethod.CRC) {
            for (MediumDecl m : media) {
                if (m instanceof MediumDecl.Serial) {
                    continue; // a cable between the two machines: crc is what Heartbeat advises there
                }
                out.add(new MigrationFinding(haCfFile, m.line(), Severity.REFUSED, "the link " + m.linkName()
                        + " carries messages authenticated with crc (" + authFile + ": auth "
                        + keys.get().signingIndex() + "), which anyone on that network can forge; jheartbeat refuses"
                        + " to start so", "write 'auth 1' and '1 sha1 KEY' (openssl rand -hex 32) in authkeys on"
                        + " both nodes, or, for a crossover cable, list its interface in jheartbeat.yaml authkeys:"
                        + " crc_links:"));
            }
        }
    }

    /** The first word of an ha.cf line, if it holds one (Heartbeat strips from '#' and splits on blanks). */
    static Optional<String> keyword(String raw) {
        int hash = raw.indexOf('#');
        String s = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
        if (s.isEmpty() || Character.isWhitespace(raw.charAt(0)) && raw.strip().startsWith("\\")) {
            return Optional.empty();
        }
        return Optional.of(s.split("[ \t]+", 2)[0]);
    }
}
