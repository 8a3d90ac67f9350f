package org.jheartbeat.sync.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.reader.ReaderException;

/**
 * Reads a YAML file of jheartbeat's ({@code sync.yaml}, {@code jheartbeat.yaml}) into snakeyaml's node
 * tree, which keeps line numbers for the {@code FILE:LINE: what; what to do} messages. Duplicate keys
 * are refused; a syntax error names its line.
 */
public final class YamlNodes {
    private YamlNodes() {
    }

    /** The text is not YAML: where (1-based line, 0 when unknown) and what, with what to do. */
    public static final class SyntaxError extends Exception {
        private static final long serialVersionUID = 1L;
        private final int line;

        SyntaxError(int line, String what) {
            super(what);
            this.line = line;
        }

        /** 1-based line of the problem, 0 when snakeyaml gives none. */
        public int line() {
            return line;
        }
    }

    /**
     * The document's root node, or {@code null} for an empty document.
     *
     * @throws SyntaxError if the text is not YAML or repeats a key
     */
    public static Node compose(String text) throws SyntaxError {
        int cr = loneCarriageReturn(text);
        if (cr >= 0) {
            // YAML (and snakeyaml) reads a CR without LF as a line break, an editor does not: the line
            // numbers of every later message would be off, so it is named here, at the editor's line
            int line = 1;
            for (int i = 0; i < cr; i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            char c = text.charAt(cr);
            String what = c == '\r' ? "a carriage return (CR) without a line feed"
                    : String.format("a line separator U+%04X", (int) c);
            throw new SyntaxError(line, what + " inside the line: YAML would read it as a line break; save the"
                    + " file with Unix (LF) or DOS (CRLF) line ends only");
        }
        try {
            LoaderOptions opts = new LoaderOptions();
            opts.setAllowDuplicateKeys(false);
            return new Yaml(opts).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
            int line = m == null ? 0 : m.getLine() + 1;
            if (line > 0 && problem != null && problem.startsWith("mapping values are not allowed")) {
                // YAML reads a plain key only up to 1024 characters; a longer one gets this message, which
                // points at the indentation instead of the key
                String[] lines = text.split("\n", -1);
                String l = line <= lines.length ? lines[line - 1] : "";
                int start = 0;
                while (start < l.length() && (l.charAt(start) == ' ' || l.charAt(start) == '-')) {
                    start++;
                }
                int length = l.indexOf(':', start) - start;
                if (length > MAX_KEY_CHARS) {
                    throw new SyntaxError(line, "a key of " + length + " characters; YAML keys are at most "
                            + MAX_KEY_CHARS + " characters: is this line what you meant?");
                }
            }
            throw new SyntaxError(line, "YAML syntax error: " + oneLine(problem) + "; fix the indentation or quoting"
                    + " there");
        } catch (ReaderException e) {
            // a character YAML does not allow (NUL, most control characters): snakeyaml gives its
            // position, not its line (found by SyncConfigFuzzTest)
            throw new SyntaxError(lineOf(text, e.getPosition()), String.format(
                    "character U+%04X is not allowed in YAML; remove it (a binary or corrupted file?)", e.getCodePoint()));
        } catch (YAMLException e) {
            // some scanner errors carry no mark (found by SyncConfigFuzzTest): name the line where the
            // last well-formed YAML event ended, the error being there or just after
            throw new SyntaxError(lastGoodLine(text), "YAML error: " + oneLine(e.getMessage())
                    + " (here or on the next lines); fix the indentation or quoting there");
        }
    }

    /**
     * Index of the first character YAML takes for a line break and an editor does not: a CR not followed by
     * LF, NEL (U+0085), LS (U+2028) or PS (U+2029); or -1.
     */
    private static int loneCarriageReturn(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')
                    || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return i;
            }
        }
        return -1;
    }

    /** The 1-based line where the last YAML event that parses ends (1 if none does). */
    private static int lastGoodLine(String text) {
        int line = 1;
        try {
            for (Event event : new Yaml().parse(new StringReader(text))) {
                if (event.getEndMark() != null) {
                    line = event.getEndMark().getLine() + 1;
                }
            }
        } catch (YAMLException e) {
            // expected: the same error, after the last good event
        }
        return line;
    }

    /** The 1-based line of the {@code position}-th code point of {@code text}. */
    private static int lineOf(String text, int position) {
        int line = 1;
        int[] codePoints = text.codePoints().limit(Math.max(0, position)).toArray();
        for (int c : codePoints) {
            if (c == '\n') {
                line++;
            }
        }
        return line;
    }

    /** Longest plain key YAML reads (snakeyaml, as the YAML 1.1 spec's implicit key), in characters. */
    static final int MAX_KEY_CHARS = 1024;

    /** Largest YAML config file read, in bytes (1 MiB, as the ha.d files): real ones are a few KiB. */
    public static final long MAX_FILE_BYTES = 1 << 20;

    /**
     * Why {@code file} cannot be a config file before it is read: a directory, or larger than
     * {@link #MAX_FILE_BYTES} (snakeyaml would stop at 3 Mi code points with a message about the
     * document, not the file).
     *
     * @return the problem and what to do, or null when the file may be read (a missing or unreadable
     *         file is left to the read, which names that)
     */
    public static String notAConfigFile(Path file) {
        if (Files.isDirectory(file)) {
            return "is a directory; a file is expected";
        }
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                return "is " + size + " bytes; config files are limited to " + MAX_FILE_BYTES
                        + " bytes: is this the right file?";
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /**
     * {@code s} with every run of white space (newlines included) made one space, and other control
     * characters (C0, DEL, C1) shown as {@code \xNN}.
     */
    public static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        // snakeyaml names the end of the text as the character NUL ("found \0(0)"), and quotes
        // other characters of the file as they are: a message is one printable line
        StringBuilder out = new StringBuilder();
        for (char c : s.replaceAll("\\s+", " ").trim().toCharArray()) {
            if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
