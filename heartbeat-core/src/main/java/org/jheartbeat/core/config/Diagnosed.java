package org.jheartbeat.core.config;

import java.util.List;

/**
 * The result of reading a config file that reports every problem at once: its diagnostics, errors and
 * warnings in line order (ha.cf, authkeys, ldirectord.cf).
 */
public interface Diagnosed {
    /** @return every problem found, in line order */
    List<ConfigDiagnostic> diagnostics();

    /** @return whether any diagnostic is an ERROR (the file is then not used) */
    default boolean hasErrors() {
        return diagnostics().stream().anyMatch(ConfigDiagnostic::isError);
    }
}
