package org.jheartbeat.director.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jheartbeat.core.config.ConfigDiagnostic;

/**
 * The problems found in one read of an ldirectord.cf: owns the {@code file:line: message} list, and which
 * global defaults have had their error reported already (once, at their own line: the blocks that
 * inherit a bad default stay quiet).
 */
final class LdirectordProblems {
    private final Path file;
    private final List<ConfigDiagnostic> diagnostics = new ArrayList<>();
    private final Set<String> reportedGlobals = new HashSet<>();

    LdirectordProblems(Path file) {
        this.file = file;
    }

    void error(int line, String msg) {
        diagnostics.add(ConfigDiagnostic.error(file, line, msg));
    }

    void warning(int line, String msg) {
        diagnostics.add(ConfigDiagnostic.warning(file, line, msg));
    }

    /** The problems so far, in the order found (the list itself: the parser sorts it at the end). */
    List<ConfigDiagnostic> diagnostics() {
        return diagnostics;
    }

    /** The keys of global defaults whose error is reported ({@code add} is true the first time). */
    Set<String> reportedGlobals() {
        return reportedGlobals;
    }

    /** A value as quoted in a message: at most 60 characters. */
    static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
