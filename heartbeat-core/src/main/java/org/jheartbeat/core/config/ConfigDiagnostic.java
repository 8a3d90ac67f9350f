package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One problem found in a config file, printed as {@code file:line: message} (errors) or
 * {@code file:line: warning: message}. Line 0 means "the file as a whole".
 *
 * @param severity error (the daemon will not start) or warning
 * @param file     the file the problem is in
 * @param line     1-based line, or 0 for the whole file
 * @param message  what is wrong and what to do, in one sentence
 */
public record ConfigDiagnostic(Severity severity, Path file, int line, String message) {
    /** How bad a diagnostic is. */
    public enum Severity { ERROR, WARNING }

    public ConfigDiagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
        message = printable(message);
    }

    /** Control characters and non-ASCII bytes from a broken file are shown as {@code \xNN}, never raw. */
    private static String printable(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 0x20 && c < 0x7f || c == '\t';
            if (!ok && sb == null) {
                sb = new StringBuilder(s.substring(0, i));
            }
            if (sb != null) {
                if (ok) {
                    sb.append(c);
                } else {
                    sb.append(String.format("\\x%02x", (int) c & 0xff));
                }
            }
        }
        return sb == null ? s : sb.toString();
    }

    public static ConfigDiagnostic error(Path file, int line, String message) {
        return new ConfigDiagnostic(Severity.ERROR, file, line, message);
    }

    public static ConfigDiagnostic warning(Path file, int line, String message) {
        return new ConfigDiagnostic(Severity.WARNING, file, line, message);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** {@code file:line: message}, or {@code file:line: warning: message}. */
    public String format() {
        return file + ":" + line + ": " + (severity == Severity.WARNING ? "warning: " : "") + message;
    }

    @Override
    public String toString() {
        return format();
    }
}
