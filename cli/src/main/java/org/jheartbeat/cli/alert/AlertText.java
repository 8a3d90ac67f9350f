package org.jheartbeat.cli.alert;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;

/**
 * What an alert says, pure: the environment of an alert script and the text of an alert mail, from one
 * event. The variables follow Pacemaker's {@code CRM_alert_*} (kind, node, sequence, timestamp in a
 * readable form and in epoch units, description, recipient), renamed {@code HB_*}; docs/reference.md
 * lists them. A variable with nothing to say is set to the empty string, never left out, so a script
 * can use {@code set -u}.
 */
public final class AlertText {
    /** The {@code Date:} header's form (RFC 5322), in UTC. */
    private static final DateTimeFormatter MAIL_DATE = DateTimeFormatter.ofPattern("EEE, d MMM yyyy HH:mm:ss Z",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    private AlertText() {
    }

    /**
     * The environment variables of a script run for {@code e}.
     *
     * @param e         the event
     * @param recipient the rule's {@code recipient:} (may be empty)
     * @param held      what the rate limit or a full queue held back since the previous alert of the rule
     * @return {@code HB_EVENT_KIND}, {@code HB_EVENT_NODE}, {@code HB_EVENT_SUBJECT}, {@code HB_EVENT_CAUSE},
     *         {@code HB_EVENT_BY}, {@code HB_EVENT_TIME} (ISO-8601 UTC, ms), {@code HB_EVENT_MS} (ms since the
     *         epoch), {@code HB_EVENT_DURATION_MS} (empty: none), {@code HB_EVENT_SEQ}, {@code HB_EVENT_DESC},
     *         {@code HB_EVENT_JSON} (the journal's line), {@code HB_ALERT_RECIPIENT}, {@code HB_ALERT_HELD}
     *         (a count, 0 when none) and {@code HB_ALERT_HELD_KINDS} ({@code node-dead x1, link-down x2})
     */
    public static Map<String, String> environment(ClusterEvent e, String recipient, RateWindow.Held held) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HB_EVENT_KIND", e.kind().wire());
        env.put("HB_EVENT_NODE", e.node());
        env.put("HB_EVENT_SUBJECT", e.subject());
        env.put("HB_EVENT_CAUSE", e.cause());
        env.put("HB_EVENT_BY", e.by());
        env.put("HB_EVENT_TIME", Instant.ofEpochMilli(e.wallMillis()).toString());
        env.put("HB_EVENT_MS", Long.toString(e.wallMillis()));
        env.put("HB_EVENT_DURATION_MS", e.durationMillis() < 0 ? "" : Long.toString(e.durationMillis()));
        env.put("HB_EVENT_SEQ", Long.toString(e.seq()));
        env.put("HB_EVENT_DESC", describe(e));
        env.put("HB_EVENT_JSON", EventCodec.toJson(e));
        env.put("HB_ALERT_RECIPIENT", recipient);
        env.put("HB_ALERT_HELD", Integer.toString(held.total()));
        env.put("HB_ALERT_HELD_KINDS", held.summary());
        return env;
    }

    /** One line for people: {@code node1: node-dead node2 (no beat for 10000 ms) after 10000 ms, asked by ...}. */
    public static String describe(ClusterEvent e) {
        StringBuilder b = new StringBuilder(e.node()).append(": ").append(e.kind().wire());
        if (!e.subject().isEmpty()) {
            b.append(' ').append(e.subject());
        }
        if (!e.cause().isEmpty()) {
            b.append(" (").append(e.cause()).append(')');
        }
        if (e.durationMillis() >= 0) {
            b.append(", ").append(e.durationMillis()).append(" ms");
        }
        if (!e.by().isEmpty()) {
            b.append(", asked by ").append(e.by());
        }
        return b.toString();
    }

    /**
     * A header value as is when it is printable ASCII, else as one RFC 2047 encoded word per 45 bytes
     * ({@code =?UTF-8?B?...?=}), so a cause or subject in another script reaches every mail reader intact.
     */
    static String header(String value) {
        if (value.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            return value;
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < value.length()) {
            int end = i;
            int bytes = 0;
            while (end < value.length()) {
                int cp = value.codePointAt(end);
                int n = new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                if (bytes + n > 45) {
                    break;
                }
                bytes += n;
                end += Character.charCount(cp);
            }
            out.append(out.length() == 0 ? "" : "\n ").append("=?UTF-8?B?").append(java.util.Base64.getEncoder()
                    .encodeToString(value.substring(i, end).getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .append("?=");
            i = end;
        }
        return out.toString();
    }

    /**
     * The mail for {@code e}: headers, a blank line, the body (lines end in {@code \n}; the SMTP client
     * writes CRLF). The subject is {@code [jheartbeat] DESC}; the body repeats the fields, the held-back
     * summary and the journal's JSON line.
     *
     * @param from the sender ({@code From:})
     * @param to   the recipients ({@code To:})
     * @param now  the {@code Date:} header's instant
     */
    public static String mail(ClusterEvent e, RateWindow.Held held, String from, List<String> to, Instant now) {
        StringBuilder b = new StringBuilder();
        b.append("From: ").append(from).append('\n');
        b.append("To: ").append(String.join(", ", to)).append('\n');
        b.append("Subject: ").append(header("[jheartbeat] " + describe(e))).append('\n');
        b.append("Date: ").append(MAIL_DATE.format(now)).append('\n');
        b.append("MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n");
        b.append("Auto-Submitted: auto-generated\n\n");
        b.append(describe(e)).append("\n\n");
        b.append("kind:     ").append(e.kind().wire()).append('\n');
        b.append("node:     ").append(e.node()).append('\n');
        b.append("subject:  ").append(e.subject()).append('\n');
        b.append("cause:    ").append(e.cause()).append('\n');
        b.append("by:       ").append(e.by()).append('\n');
        b.append("time:     ").append(Instant.ofEpochMilli(e.wallMillis())).append('\n');
        b.append("duration: ").append(e.durationMillis() < 0 ? "" : e.durationMillis() + " ms").append('\n');
        b.append("seq:      ").append(e.seq()).append('\n');
        if (held.total() > 0) {
            b.append("\n").append(held.total()).append(" earlier event(s) not sent (rate limit or full queue): ")
                    .append(held.summary()).append('\n');
        }
        b.append("\n").append(EventCodec.toJson(e)).append('\n');
        return b.toString();
    }
}
