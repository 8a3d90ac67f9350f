package org.jheartbeat.core.journal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.jheartbeat.core.control.JsonText;

/**
 * One event as one line of JSON, the form of the journal file, of {@code hb events --json}, of the
 * control socket's {@code events} answer and of the console's and {@code hb report}'s input:
 *
 * <pre>
 * {"seq":7,"time":"2026-12-06T03:12:04.518Z","ms":1796526724518,"node":"node1","kind":"node-dead",
 *  "subject":"node2","cause":"no beat for 10000 ms","by":"","duration_ms":10000}
 * </pre>
 *
 * {@code ms} is authoritative; {@code time} is the same instant in UTC for people and tools that read
 * ISO-8601. A reader ignores fields it does not know, so fields can be added.
 */
public final class EventCodec {
    /** Longest line {@link #parse} reads, in bytes (four {@link ClusterEvent#MAX_TEXT} fields escaped fit). */
    public static final int MAX_LINE = 16 * 1024;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(8)
                    .maxStringLength(MAX_LINE).maxNumberLength(20).build())
            .build();

    private EventCodec() {
    }

    /** The event as one line of JSON, without the newline. */
    public static String toJson(ClusterEvent e) {
        return JsonText.write(g -> {
            g.writeStartObject();
            g.writeNumberField("seq", e.seq());
            g.writeStringField("time", Instant.ofEpochMilli(e.wallMillis()).toString());
            g.writeNumberField("ms", e.wallMillis());
            g.writeStringField("node", e.node());
            g.writeStringField("kind", e.kind().wire());
            g.writeStringField("subject", e.subject());
            g.writeStringField("cause", e.cause());
            g.writeStringField("by", e.by());
            g.writeNumberField("duration_ms", e.durationMillis());
            g.writeEndObject();
        });
    }

    /**
     * The event on {@code line}, or empty if the line is not one: too long, not JSON, not an object,
     * no {@code ms} or {@code kind}, or a kind this version does not know (a newer peer's). Never throws.
     */
    public static Optional<ClusterEvent> parse(String line) {
        if (line == null || line.getBytes(StandardCharsets.UTF_8).length > MAX_LINE) {
            return Optional.empty();
        }
        try (JsonParser p = FACTORY.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            long seq = 0;
            Long ms = null;
            long duration = -1;
            String node = "";
            String kind = null;
            String subject = "";
            String cause = "";
            String by = "";
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken v = p.nextToken();
                if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                    p.skipChildren();
                    continue;
                }
                switch (name) {
                    case "seq" -> seq = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : 0;
                    case "ms" -> ms = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                    case "duration_ms" -> duration = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : -1;
                    case "node" -> node = text(p, v);
                    case "kind" -> kind = text(p, v);
                    case "subject" -> subject = text(p, v);
                    case "cause" -> cause = text(p, v);
                    case "by" -> by = text(p, v);
                    default -> { }
                }
            }
            if (t != JsonToken.END_OBJECT || p.nextToken() != null || ms == null || kind == null) {
                return Optional.empty();
            }
            Optional<EventKind> k = EventKind.fromWire(kind);
            if (k.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new ClusterEvent(Math.max(0, seq), ms, node, k.get(), subject, cause, by, duration));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String text(JsonParser p, JsonToken v) throws IOException {
        return v == JsonToken.VALUE_STRING ? p.getText() : "";
    }
}
