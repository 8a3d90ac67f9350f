package org.jheartbeat.cli.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.journal.EventKind;

/**
 * jheartbeat.yaml {@code alerts:}: who is told when something happens, as Pacemaker's alert agents and
 * keepalived's {@code notify} scripts (docs/design/observability.md, "Alerts"). Parsed by {@link AlertsSection}.
 * <pre>
 * alerts:
 *   - script: /etc/ha.d/alert.sh          # root-owned, not writable by group or others
 *     kinds: [node-dead, fence-failed]     # EventKind wire names; absent: every kind
 *     timeout: 30s                         # past it the script's process group is killed (default 30s)
 *     recipient: ops-pager                 # handed to the script as HB_ALERT_RECIPIENT (optional)
 *   - mail:
 *       to: [root@example.com]
 *       from: heartbeat@node1.example.com  # default root@NODE
 *       smtp: mail.example.com:25          # default localhost:25
 *     kinds: [node-dead]
 *     rate_limit: 10/min                   # more are counted and summarised in the next that goes out
 * </pre>
 *
 * @param rules the entries, in file order; empty: no alerts
 */
public record AlertSettings(List<Rule> rules) {
    /** No alerts. */
    public static final AlertSettings NONE = new AlertSettings(List.of());
    /** The {@code timeout:} when absent, as Pacemaker's alert default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** The SMTP server when {@code smtp:} is absent. */
    public static final String DEFAULT_SMTP = "localhost:25";

    public AlertSettings {
        rules = List.copyOf(rules);
    }

    /** Where an alert goes. */
    public sealed interface Target permits Script, Mail {
    }

    /**
     * A program run with the event in its environment.
     *
     * @param program   the absolute path of the script
     * @param recipient {@code recipient:}, given to it as {@code HB_ALERT_RECIPIENT} (empty if absent)
     */
    public record Script(Path program, String recipient) implements Target {
        public Script {
            Objects.requireNonNull(program, "program");
            Objects.requireNonNull(recipient, "recipient");
        }
    }

    /**
     * A mail sent through SMTP.
     *
     * @param to   the recipients, at least one
     * @param from the envelope and header sender; empty: {@code root@NODE}
     * @param host the SMTP server
     * @param port its port
     */
    public record Mail(List<String> to, Optional<String> from, String host, int port) implements Target {
        public Mail {
            to = List.copyOf(to);
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(host, "host");
        }
    }

    /**
     * At most {@code count} alerts per {@code per}.
     *
     * @param count how many, at least 1
     * @param per   in what window (a second, minute, hour or day)
     */
    public record RateLimit(int count, Duration per) {
        /** The text form, e.g. {@code 10/min}. */
        @Override
        public String toString() {
            String unit = per.equals(Duration.ofSeconds(1)) ? "s" : per.equals(Duration.ofMinutes(1)) ? "min"
                    : per.equals(Duration.ofHours(1)) ? "h" : "day";
            return count + "/" + unit;
        }
    }

    /**
     * One {@code alerts:} entry.
     *
     * @param line      its line in jheartbeat.yaml (log lines and counters name it {@code alert LINE})
     * @param target    a script or a mail
     * @param kinds     the kinds it is sent for; empty: every kind
     * @param timeout   the bound of one run of the script, or of one SMTP exchange
     * @param rateLimit at most so many per window; empty: no limit
     */
    public record Rule(int line, Target target, Set<EventKind> kinds, Duration timeout, Optional<RateLimit> rateLimit) {
        public Rule {
            Objects.requireNonNull(target, "target");
            kinds = Set.copyOf(kinds);
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(rateLimit, "rateLimit");
        }

        /** Whether an event of {@code kind} goes to this rule. */
        public boolean wants(EventKind kind) {
            return kinds.isEmpty() || kinds.contains(kind);
        }

        /** How messages name it: {@code script /etc/ha.d/alert.sh} or {@code mail to a@b, c@d}. */
        public String describe() {
            return target instanceof Script s ? "script " + s.program()
                    : "mail to " + String.join(", ", ((Mail) target).to());
        }
    }
}
