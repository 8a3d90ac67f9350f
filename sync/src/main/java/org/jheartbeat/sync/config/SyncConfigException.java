package org.jheartbeat.sync.config;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.jheartbeat.core.config.ConfigDiagnostic;

/**
 * The user errors of one {@code sync.yaml}: every problem the parser found, each a {@link ConfigDiagnostic}
 * (the model the ha.cf and ldirectord.cf parsers report in), ordered by line. The message has one line per
 * problem, {@code FILE:LINE: what is wrong; what to do}, where FILE is the path as it was given to the parser
 * and LINE is 1-based ({@code FILE: ...} without a line when the problem concerns the whole file, e.g. it
 * cannot be read). Callers print {@link #getMessage()} and nothing else: there is no stack trace for the user
 * to read.
 */
public final class SyncConfigException extends Exception {
    private static final long serialVersionUID = 1L;
    /** The name in messages of a config built in code, which has no file. */
    private static final Path UNNAMED = Path.of("sync.yaml");

    private final transient Path file;
    private final transient List<ConfigDiagnostic> diagnostics;

    /**
     * One problem.
     *
     * @param file  the file as given (may be {@code null} for configs built in code: "sync.yaml")
     * @param line  1-based line, or 0 when no line applies
     * @param what  the problem and the fix, {@code "what is wrong; what to do"}
     */
    public SyncConfigException(Path file, int line, String what) {
        this(file, List.of(ConfigDiagnostic.error(file == null ? UNNAMED : file, line, what)));
    }

    /**
     * Several problems of one file, reported together.
     *
     * @param file        the file as given (may be {@code null} for configs built in code)
     * @param diagnostics at least one error; they are ordered by line (stable for the same line)
     * @throws IllegalArgumentException if {@code diagnostics} is empty
     */
    public SyncConfigException(Path file, List<ConfigDiagnostic> diagnostics) {
        super(format(diagnostics));
        this.file = file;
        this.diagnostics = diagnostics.stream().sorted(Comparator.comparingInt(ConfigDiagnostic::line)).toList();
    }

    private static String format(List<ConfigDiagnostic> diagnostics) {
        if (diagnostics.isEmpty()) {
            throw new IllegalArgumentException("a SyncConfigException needs at least one problem");
        }
        return diagnostics.stream().sorted(Comparator.comparingInt(ConfigDiagnostic::line))
                .map(SyncConfigException::format).collect(Collectors.joining("\n"));
    }

    /**
     * {@code FILE:LINE: what}, or {@code FILE: what} for line 0. The message text is already one printable line:
     * {@link ConfigDiagnostic} shows control characters (a newline inside a value quoted from the file) as
     * {@code \xNN}, which SyncConfigFuzzTest found echoed raw.
     */
    public static String format(ConfigDiagnostic d) {
        return d.line() > 0 ? d.file() + ":" + d.line() + ": " + d.message() : d.file() + ": " + d.message();
    }

    /** @return the file as given to the parser, or {@code null} for a config built in code */
    public Path file() {
        return file;
    }

    /** @return the 1-based line of the first problem, 0 when none applies */
    public int line() {
        return diagnostics.get(0).line();
    }

    /** @return every problem, ordered by line; at least one */
    public List<ConfigDiagnostic> diagnostics() {
        return diagnostics;
    }
}
