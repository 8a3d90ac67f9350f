package org.jheartbeat.director.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The global directives of ldirectord.cf that are not per-virtual defaults (those are folded into
 * each {@link VirtualService}) [ldirectord 4.x].
 *
 * @param autoReload       {@code autoreload}, default no: re-read the file when its content changes
 * @param callback         {@code callback}: run with the config path when the file changes
 * @param logFile          {@code logfile}, default {@code /var/log/ldirectord.log} (a path, or a
 *                         syslog facility such as {@code local0})
 * @param execute          {@code execute}: other configs to start, reload and stop with this one
 * @param fork             {@code fork}, default no
 * @param supervised       {@code supervised}, default no
 * @param readdQuiescent   {@code readdquiescent}, default no
 * @param emailAlertFrom   {@code emailalertfrom}, if given
 * @param maintenanceDir   {@code maintenancedir}, if given
 * @param checkInterval    the global {@code checkinterval} (default 10 s): how often the main pass runs
 * @param sync             {@code syncdaemon} and its companions (a jheartbeat extension), if given
 */
public record GlobalSettings(boolean autoReload, Optional<String> callback, String logFile, List<String> execute,
        boolean fork, boolean supervised, boolean readdQuiescent, Optional<String> emailAlertFrom,
        Optional<String> maintenanceDir, Duration checkInterval, Optional<SyncSettings> sync) {

    public GlobalSettings {
        Objects.requireNonNull(callback, "callback");
        Objects.requireNonNull(logFile, "logFile");
        execute = List.copyOf(execute);
        Objects.requireNonNull(emailAlertFrom, "emailAlertFrom");
        Objects.requireNonNull(maintenanceDir, "maintenanceDir");
        Objects.requireNonNull(checkInterval, "checkInterval");
        Objects.requireNonNull(sync, "sync");
    }
}
