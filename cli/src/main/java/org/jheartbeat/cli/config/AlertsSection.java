package org.jheartbeat.cli.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.cli.config.JheartbeatYaml.Problem;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.RootFiles;
import org.jheartbeat.core.config.Suggestions;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.director.alert.SmtpClient;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads jheartbeat.yaml's {@code alerts:} section into {@link AlertSettings}: a list of entries, each a
 * {@code script:} or a {@code mail:}, with {@code kinds:}, {@code timeout:}, {@code rate_limit:} and, for a
 * script, {@code recipient:}. Every problem is one {@link Problem} ({@code what is wrong; what to do}) at its
 * line; unknown keys and kinds get "did you mean". A script must be an absolute path to an executable file
 * that only root may change ({@link RootFiles}: it runs as root at every event).
 */
final class AlertsSection {
    private static final List<String> ENTRY_KEYS = List.of("script", "mail", "kinds", "timeout", "rate_limit",
            "recipient");
    private static final List<String> MAIL_KEYS = List.of("to", "from", "smtp");
    private static final Pattern RATE = Pattern.compile("([0-9]{1,6})\\s*/\\s*([a-z]+)");
    /** What an address may be: a local user or user@domain, no blanks, brackets or control characters. */
    private static final Pattern ADDRESS = Pattern.compile("[^\\s<>()\\[\\],;:\"\\\\]+(@[^\\s<>()\\[\\],;:\"\\\\@]+)?");

    private AlertsSection() {
    }

    /**
     * The section's rules.
     *
     * @param problems where problems that let the parse go on are added
     * @param section  the {@code alerts:} entry of the file, or {@code null}
     * @throws Problem when the section is not a list
     */
    static AlertSettings parse(List<Problem> problems, NodeTuple section) throws Problem {
        if (section == null || JheartbeatYaml.isNull(section.getValueNode())) {
            return AlertSettings.NONE;
        }
        if (!(section.getValueNode() instanceof SequenceNode list)) {
            throw new Problem(JheartbeatYaml.line(section.getValueNode()), "alerts: must be a list of entries, each"
                    + " starting with '- script: /etc/ha.d/alert.sh' or '- mail: {to: [root]}'");
        }
        List<AlertSettings.Rule> rules = new ArrayList<>();
        for (Node n : list.getValue()) {
            int before = problems.size();
            try {
                AlertSettings.Rule r = entry(problems, n);
                if (problems.size() == before) {
                    rules.add(r);
                }
            } catch (Problem p) {
                problems.add(p);
            }
        }
        return new AlertSettings(rules);
    }

    private static AlertSettings.Rule entry(List<Problem> problems, Node n) throws Problem {
        int line = JheartbeatYaml.line(n);
        Map<String, NodeTuple> m = JheartbeatYaml.mapping(problems, n, "alerts:", ENTRY_KEYS);
        NodeTuple script = m.get("script");
        NodeTuple mail = m.get("mail");
        if ((script == null) == (mail == null)) {
            throw new Problem(line, "alerts: each entry has exactly one of script: and mail:" + (script == null
                    ? "; add script: /etc/ha.d/alert.sh or mail: {to: [root]}" : "; split it into two entries"));
        }
        String recipient = m.containsKey("recipient") ? scalar(m.get("recipient"), "recipient", "ops-pager") : "";
        if (mail != null && m.containsKey("recipient")) {
            problems.add(new Problem(JheartbeatYaml.line(m.get("recipient").getKeyNode()), "alerts: recipient: is"
                    + " for scripts; a mail's recipients are its to: list"));
        }
        AlertSettings.Target target = script != null ? script(problems, script, recipient) : mail(problems, mail);
        Set<EventKind> kinds = m.containsKey("kinds") ? kinds(problems, m.get("kinds")) : Set.of();
        Duration timeout = AlertSettings.DEFAULT_TIMEOUT;
        if (m.containsKey("timeout")) {
            NodeTuple t = m.get("timeout");
            try {
                timeout = OperationTimeouts.parseDuration(scalar(t, "timeout", "30s"));
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(JheartbeatYaml.line(t.getValueNode()), "alerts: timeout: " + e.getMessage()));
            }
        }
        Optional<AlertSettings.RateLimit> rate = Optional.empty();
        if (m.containsKey("rate_limit")) {
            NodeTuple r = m.get("rate_limit");
            rate = rate(problems, r, scalar(r, "rate_limit", "10/min"));
        }
        return new AlertSettings.Rule(line, target, kinds, timeout, rate);
    }

    private static AlertSettings.Script script(List<Problem> problems, NodeTuple t, String recipient) throws Problem {
        String v = scalar(t, "script", "/etc/ha.d/alert.sh");
        int line = JheartbeatYaml.line(t.getValueNode());
        Path p = Path.of(v);
        if (!p.isAbsolute()) {
            throw new Problem(line, "alerts: script: [" + v + "] is not an absolute path; write e.g."
                    + " /etc/ha.d/alert.sh");
        }
        if (!Files.isRegularFile(p)) {
            problems.add(new Problem(line, "alerts: script: " + v + " does not exist or is not a file; install it"
                    + " (root-owned, mode 0755) or correct the path"));
        } else if (!Files.isExecutable(p)) {
            problems.add(new Problem(line, "alerts: script: " + v + " is not executable; chmod 0755 " + v));
        } else {
            for (ConfigDiagnostic d : RootFiles.check(p, "alert script " + v)) {
                if (d.isError()) {
                    problems.add(new Problem(line, "alerts: script: " + d.message()));
                }
            }
        }
        return new AlertSettings.Script(p, recipient);
    }

    private static AlertSettings.Mail mail(List<Problem> problems, NodeTuple t) throws Problem {
        Map<String, NodeTuple> m = JheartbeatYaml.mapping(problems, t.getValueNode(), "alerts: mail:", MAIL_KEYS);
        NodeTuple to = m.get("to");
        if (to == null) {
            throw new Problem(JheartbeatYaml.line(t.getValueNode()), "alerts: mail: has no to:; add to: [root] or"
                    + " to: [ops@example.com]");
        }
        List<String> addresses = new ArrayList<>();
        Node v = to.getValueNode();
        List<Node> items = v instanceof SequenceNode s ? s.getValue() : List.of(v);
        for (Node a : items) {
            String text = a instanceof ScalarNode sa ? sa.getValue().trim() : "";
            if (!ADDRESS.matcher(text).matches()) {
                problems.add(new Problem(JheartbeatYaml.line(a), "alerts: mail: to: [" + text + "] is not a mail"
                        + " address; write user@example.com or a local user name, one per list item"));
            } else {
                addresses.add(text);
            }
        }
        if (items.isEmpty()) {
            problems.add(new Problem(JheartbeatYaml.line(v), "alerts: mail: to: is empty; list at least one address"));
        }
        Optional<String> from = Optional.empty();
        if (m.containsKey("from")) {
            String f = scalar(m.get("from"), "mail: from", "heartbeat@node1.example.com").trim();
            if (!ADDRESS.matcher(f).matches()) {
                problems.add(new Problem(JheartbeatYaml.line(m.get("from").getValueNode()), "alerts: mail: from: ["
                        + f + "] is not a mail address; write e.g. heartbeat@node1.example.com"));
            }
            from = Optional.of(f);
        }
        String host = "localhost";
        int port = 25;
        if (m.containsKey("smtp")) {
            String s = scalar(m.get("smtp"), "mail: smtp", "mail.example.com:25");
            try {
                SmtpClient.Server server = SmtpClient.parse(s);
                host = server.host();
                port = server.port();
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(JheartbeatYaml.line(m.get("smtp").getValueNode()), "alerts: mail: "
                        + e.getMessage() + "; write HOST or HOST:PORT, e.g. mail.example.com:25"));
            }
        }
        return new AlertSettings.Mail(addresses, from, host, port);
    }

    private static Set<EventKind> kinds(List<Problem> problems, NodeTuple t) {
        List<String> known = Arrays.stream(EventKind.values()).map(EventKind::wire).toList();
        Set<EventKind> out = EnumSet.noneOf(EventKind.class);
        Node v = t.getValueNode();
        List<Node> items = v instanceof SequenceNode s ? s.getValue() : List.of(v);
        if (items.isEmpty()) {
            problems.add(new Problem(JheartbeatYaml.line(v), "alerts: kinds: is empty; list the kinds to send, e.g."
                    + " [node-dead, fence-failed], or remove the line to send every kind"));
        }
        for (Node k : items) {
            String text = k instanceof ScalarNode sk ? sk.getValue().trim() : "";
            Optional<EventKind> kind = EventKind.fromWire(text.toLowerCase(Locale.ROOT).replace('_', '-'));
            if (kind.isPresent()) {
                out.add(kind.get());
                continue;
            }
            problems.add(new Problem(JheartbeatYaml.line(k), "alerts: kinds: unknown kind [" + text + "]; "
                    + Suggestions.closest(text, known).map(c -> "did you mean '" + c + "'? ").orElse("")
                    + "known: " + String.join(", ", known)));
        }
        return out;
    }

    /**
     * {@code N/UNIT}: at most N (1..999999) per second ({@code s}, {@code sec}), minute ({@code min}), hour
     * ({@code h}, {@code hour}) or day.
     */
    static Optional<AlertSettings.RateLimit> rate(List<Problem> problems, NodeTuple t, String text) {
        Matcher m = RATE.matcher(text.trim().toLowerCase(Locale.ROOT));
        Duration per = null;
        if (m.matches()) {
            per = switch (m.group(2)) {
                case "s", "sec", "second" -> Duration.ofSeconds(1);
                case "m", "min", "minute" -> Duration.ofMinutes(1);
                case "h", "hr", "hour" -> Duration.ofHours(1);
                case "d", "day" -> Duration.ofDays(1);
                default -> null;
            };
        }
        if (per == null || Integer.parseInt(m.group(1)) < 1) {
            problems.add(new Problem(JheartbeatYaml.line(t.getValueNode()), "alerts: rate_limit: [" + text + "] is"
                    + " not COUNT/PERIOD; write e.g. 10/min (periods: s, min, h, day; count at least 1)"));
            return Optional.empty();
        }
        return Optional.of(new AlertSettings.RateLimit(Integer.parseInt(m.group(1)), per));
    }

    /** The value of a key that takes one plain value. */
    private static String scalar(NodeTuple t, String key, String example) throws Problem {
        if (!(t.getValueNode() instanceof ScalarNode s) || s.getValue().isBlank()) {
            throw new Problem(JheartbeatYaml.line(t.getValueNode()), "alerts: " + key + ": needs one value; write"
                    + " e.g. " + key.replaceFirst(".*: ", "") + ": " + example);
        }
        return s.getValue();
    }
}
