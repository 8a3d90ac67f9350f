package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads ha.cf with Heartbeat 3.0.6's rules ({@code heartbeat/config.c} {@code parse_config},
 * ha.cf(5); facts F.1):
 * <ul>
 *   <li>read line by line, in order; {@code #} starts a comment anywhere; blank lines are ignored;</li>
 *   <li>the first blank/tab-delimited token is the directive, looked up in {@link DirectiveTable};</li>
 *   <li>an ordinary directive is applied once per token of the rest of the line, split on blanks, tabs
 *       and commas ({@code node a b} adds two nodes, {@code bcast eth0 eth1} two media);</li>
 *   <li>a whole-line directive ({@code ucast}, {@code stonith_host}, ...) receives the raw remainder.</li>
 * </ul>
 * A directive that takes one value ({@link DirectiveTable#takesList()} false) given several words is an ERROR at
 * its line: Heartbeat would keep the last word silently ({@code logfile a b} logs to {@code b}).
 * Problems become diagnostics: an unknown word is an ERROR ({@code Illegal directive}), a Heartbeat
 * directive jheartbeat does not implement is a WARNING and its line is ignored, a directive with no
 * value is an ERROR. CRLF line endings are an ERROR at the first such line. Never throws on bad input.
 */
public final class HaCfParser {
    /** The file name inside a config directory. */
    public static final String FILE_NAME = "ha.cf";

    private HaCfParser() {
    }

    /**
     * What a parse produced: the ha.cf as far as it could be read, and every problem found.
     *
     * @param haCf        the directives that parsed (bad lines are left out)
     * @param diagnostics errors and warnings in line order
     */
    public record Result(HaCf haCf, List<ConfigDiagnostic> diagnostics) implements Diagnosed {
        public Result {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    /**
     * Parses the text of an ha.cf.
     *
     * @param file the path to name in diagnostics (not read)
     * @param text the whole file
     * @return the parsed ha.cf and its diagnostics
     */
    public static Result parse(Path file, String text) {
        List<ConfigDiagnostic> diagnostics = new ArrayList<>();
        HaCfState state = new HaCfState(file, diagnostics);
        List<String> lines = ConfigText.lines(file, text, diagnostics);
        Set<String> rejected = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            parseLine(state, lines.get(i), i + 1, diagnostics, rejected);
        }
        return new Result(state.toHaCf(rejected), diagnostics);
    }

    private static long errors(List<ConfigDiagnostic> diagnostics) {
        return diagnostics.stream().filter(ConfigDiagnostic::isError).count();
    }

    private static void parseLine(HaCfState state, String raw, int line, List<ConfigDiagnostic> diagnostics,
                                  Set<String> rejected) {
        String content = trimBlanks(ConfigText.stripComment(raw));
        if (content.isEmpty()) {
            return;
        }
        String[] split = content.split("[ \t]+", 2);
        String keyword = split[0];
        String remainder = split.length > 1 ? split[1] : "";
        Optional<DirectiveTable> row = DirectiveTable.lookup(keyword);
        if (row.isEmpty()) {
            state.error(line, "Illegal directive [" + keyword + "] in " + FILE_NAME + suggestion(keyword));
            return;
        }
        DirectiveTable directive = row.get();
        if (directive == DirectiveTable.APIAUTH) {
            state.warning(line, apiauth(remainder));
            return;
        }
        if (!directive.implemented()) {
            state.warning(line, "directive '" + keyword + "' has no effect in jheartbeat; line ignored");
            return;
        }
        List<String> values = directive.wholeLine()
                ? (remainder.isEmpty() ? List.of() : List.of(remainder))
                : Arrays.stream(remainder.split("[ \t,]+")).filter(s -> !s.isEmpty()).toList();
        if (values.isEmpty()) {
            state.error(line, "directive '" + keyword + "' needs a value");
            rejected.add(directive.keyword());
            return;
        }
        if (values.size() > 1 && !directive.wholeLine() && !directive.takesList()) {
            state.error(line, oneValue(keyword, values));
            rejected.add(directive.keyword());
            return;
        }
        for (String value : values) {
            long before = errors(diagnostics);
            directive.handler().apply(state, value, line);
            if (errors(diagnostics) > before) {
                rejected.add(directive.keyword()); // its default stands in: the combined checks leave it alone
            }
        }
    }

    /**
     * The error of a one-value directive given several words: Heartbeat 3.0.6 splits the rest of the line at
     * blanks, tabs and commas and applies each word in turn ({@code config.c} {@code parse_config}), so
     * {@code logfile a b} passes its check and logs to {@code b}.
     */
    private static String oneValue(String keyword, List<String> values) {
        boolean path = keyword.equals("logfile") || keyword.equals("debugfile") || keyword.equals("watchdog");
        // baud, watchdog and crm/pacemaker may be set once: Heartbeat refuses the second word; the rest keep the last
        boolean once = keyword.equals("baud") || keyword.equals("watchdog") || keyword.equals("crm")
                || keyword.equals("pacemaker");
        return keyword + " takes one " + (path ? "path" : "value") + ", but this line gives " + values.size() + " ("
                + String.join(" ", values) + "): Heartbeat 3.0.6 splits the line at blanks, tabs and commas and applies"
                + " each word in turn, so it would " + (once ? "refuse the second" : "use the last, "
                + values.get(values.size() - 1)) + "; write one " + (path ? "path, without blanks or commas" : "value")
                + " (line ignored)";
    }

    private static String trimBlanks(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && (s.charAt(start) == ' ' || s.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (s.charAt(end - 1) == ' ' || s.charAt(end - 1) == '\t')) {
            end--;
        }
        return s.substring(start, end);
    }

    /** "; did you mean 'keepalive'?" for a keyword within edit distance 2 of a real one, else "". */
    /**
     * What an {@code apiauth CLIENT [uid=U,...] [gid=G,...]} line becomes: Heartbeat's API clients (ipfail, the
     * crm) do not exist here, and who may command the daemon is decided at its control socket (docs/security.md):
     * group {@code haclient} reads, root and jheartbeat.yaml's {@code control: admin_group:} change. A group the
     * line names other than haclient is offered as that admin group.
     */
    static String apiauth(String remainder) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:^|\\s)gid=([^\\s]+)").matcher(remainder);
        java.util.List<String> groups = new java.util.ArrayList<>();
        while (m.find()) {
            for (String g : m.group(1).split(",")) {
                if (!g.isEmpty() && !g.equals("haclient") && !groups.contains(g)) {
                    groups.add(g);
                }
            }
        }
        return "apiauth is not used by jheartbeat (it has no Heartbeat API clients); at its control socket group"
                + " haclient may read and only root may change the cluster" + (groups.isEmpty()
                ? ", or a group named in jheartbeat.yaml control: admin_group:"
                : "; to let group " + groups.get(0) + " change it too, write jheartbeat.yaml control: admin_group: "
                        + groups.get(0)) + "; line ignored";
    }

    private static String suggestion(String keyword) {
        String best = null;
        int bestDistance = 3;
        for (DirectiveTable d : DirectiveTable.values()) {
            int distance = Suggestions.distance(keyword, d.keyword());
            if (distance < bestDistance) {
                best = d.keyword();
                bestDistance = distance;
            }
        }
        return best == null ? "" : "; did you mean '" + best + "'?";
    }
}
