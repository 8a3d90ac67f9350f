package org.jheartbeat.core.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link ConfigLoader#load} found in a config directory: the configuration when it is valid, and
 * every problem of every file.
 *
 * @param config          present exactly when no diagnostic is an ERROR
 * @param diagnostics     errors and warnings, grouped by file (ha.cf, authkeys, haresources, then
 *                        cross-field rules), each group in line order
 * @param defaultsApplied the defaults filled in for values the files did not set
 */
public record ConfigLoadResult(Optional<ClusterConfig> config, List<ConfigDiagnostic> diagnostics,
                               List<AppliedDefault> defaultsApplied) {
    public ConfigLoadResult {
        Objects.requireNonNull(config, "config");
        diagnostics = List.copyOf(diagnostics);
        defaultsApplied = List.copyOf(defaultsApplied);
        if (config.isPresent() && diagnostics.stream().anyMatch(ConfigDiagnostic::isError)) {
            throw new IllegalArgumentException("a config with errors must not be present");
        }
    }

    /** A result without a record of applied defaults. */
    public ConfigLoadResult(Optional<ClusterConfig> config, List<ConfigDiagnostic> diagnostics) {
        this(config, diagnostics, List.of());
    }

    /** Whether any diagnostic is an ERROR (then {@link #config()} is empty and the daemon must not start). */
    public boolean hasErrors() {
        return diagnostics.stream().anyMatch(ConfigDiagnostic::isError);
    }

    /** The ERROR diagnostics only. */
    public List<ConfigDiagnostic> errors() {
        return diagnostics.stream().filter(ConfigDiagnostic::isError).toList();
    }

    /** The WARNING diagnostics only. */
    public List<ConfigDiagnostic> warnings() {
        return diagnostics.stream().filter(d -> !d.isError()).toList();
    }
}
