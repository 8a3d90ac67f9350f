package org.jheartbeat.cli.migrate;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One thing a Heartbeat 3.0.6 configuration does differently under jheartbeat.
 *
 * @param file     the file it is in
 * @param line     its 1-based line, 0 for the file as a whole (e.g. a directive that is absent)
 * @param severity how much it matters
 * @param message  what jheartbeat does with it
 * @param todo     what the admin should do
 */
public record MigrationFinding(Path file, int line, Severity severity, String message, String todo) {
    /** How much a finding matters; {@link #UNSAFE} and {@link #REFUSED} make {@code hb migrate check} exit 1. */
    public enum Severity {
        /** Ignored or mapped, with no effect on what runs where. */
        INFO("info"),
        /** jheartbeat behaves differently from Heartbeat here. */
        CHANGES("changes behaviour"),
        /** Works, but risks both nodes running a group, or a takeover that cannot happen. */
        UNSAFE("unsafe"),
        /** jheartbeat refuses to start with this. */
        REFUSED("refused");

        private final String word;

        Severity(String word) {
            this.word = word;
        }

        /** As printed: {@code info}, {@code changes behaviour}, {@code unsafe}, {@code refused}. */
        public String word() {
            return word;
        }

        /** Whether it makes the check fail (exit 1). */
        public boolean fails() {
            return this == UNSAFE || this == REFUSED;
        }
    }

    public MigrationFinding {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(todo, "todo");
    }

    /** {@code FILE:LINE: SEVERITY: message; to do: todo}. */
    public String format() {
        return file + ":" + line + ": " + severity.word() + ": " + message + (todo.isEmpty() ? "" : " -> " + todo);
    }
}
