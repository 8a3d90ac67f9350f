package org.jheartbeat.core.config;

import java.util.Locale;
import java.util.Objects;

/**
 * A cluster node's name, as listed by an ha.cf {@code node} line and as sent in the {@code src}
 * field of every message. Heartbeat 3.0.6 lowercases node names ({@code config.c}, {@code
 * hb_uuid.c} lookups are case-insensitive), so the value held here is always lowercase.
 *
 * @param value the lowercase name, 1..99 characters, no blanks
 */
public record NodeName(String value) implements Comparable<NodeName> {
    /** Longest node name Heartbeat 3.0.6 accepts (HOSTLENG - 1), in characters. */
    public static final int MAX_LENGTH = 99;

    public NodeName {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty() || value.length() > MAX_LENGTH || value.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("invalid node name [" + value + "]");
        }
        value = value.toLowerCase(Locale.ROOT);
    }

    /** Parses a node name as typed by a user or sent on the wire; lowercases it. */
    public static NodeName of(String value) {
        return new NodeName(value);
    }

    @Override
    public int compareTo(NodeName o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
