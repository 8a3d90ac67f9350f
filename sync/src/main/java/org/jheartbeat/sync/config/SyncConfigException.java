package org.jheartbeat.sync.config;

import java.nio.file.Path;

/**
 * A user error in {@code sync.yaml}: one message of the form {@code FILE:LINE: what is wrong; what to
 * do}, where FILE is the path as it was given to the parser and LINE is 1-based ({@code FILE: ...}
 * without a line when the error concerns the whole file, e.g. it cannot be read). Callers print
 * {@link #getMessage()} and nothing else: there is no stack trace for the user to read.
 */
public final class SyncConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;

    /**
     * @param file  the file as given (may be {@code null} for configs built in code: "sync.yaml")
     * @param line  1-based line, or 0 when no line applies
     * @param what  the problem and the fix, {@code "what is wrong; what to do"}
     */
    public SyncConfigException(Path file, int line, String what) {
        super(format(file, line, what));
        this.file = file;
        this.line = line;
    }

    private static String format(Path file, int line, String what) {
        String name = file == null ? "sync.yaml" : file.toString();
        String text = printable(what);
        return line > 0 ? name + ":" + line + ": " + text : name + ": " + text;
    }

    /**
     * {@code s} with control characters (a newline inside a value quoted from the file, a CR, a tab)
     * shown as {@code \xNN}, so the message stays one line (found by SyncConfigFuzzTest: a YAML scalar
     * folded over two lines was echoed with its newline).
     */
    private static String printable(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** @return the file as given to the parser, or {@code null} for a config built in code */
    public Path file() {
        return file;
    }

    /** @return the 1-based line of the error, 0 when none applies */
    public int line() {
        return line;
    }
}
