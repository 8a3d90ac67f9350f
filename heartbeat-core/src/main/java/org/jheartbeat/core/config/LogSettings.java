package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the daemon logs, from ha.cf {@code logfile}, {@code debugfile} and {@code logfacility}
 * (Heartbeat 3.0.6 ha.cf(5)). {@code logfacility none} is kept as the string {@code none}.
 *
 * @param logfile     file receiving info and above
 * @param debugfile   file receiving everything, debug included
 * @param logfacility syslog facility name, e.g. {@code local0}
 */
public record LogSettings(Optional<Path> logfile, Optional<Path> debugfile, Optional<String> logfacility) {
    /** No file and no syslog: log to standard output only. */
    public static LogSettings none() {
        return new LogSettings(Optional.empty(), Optional.empty(), Optional.empty());
    }
}
