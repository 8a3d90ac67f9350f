package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Every cross-field rule of a config directory, in one method (STYLE rule 8; HikariCP
 * {@code validateNumerics} style). Rules are Heartbeat 3.0.6's ({@code heartbeat/config.c}
 * {@code init_config}/{@code parse_config}, facts D.1 and F.1) plus jheartbeat's two-node limit.
 * Times are milliseconds.
 */
public final class ConfigValidator {
    /** Heartbeat's default keepalive, in ms. */
    public static final long DEFAULT_KEEPALIVE_MS = 1_000;
    /** Heartbeat's default deadtime, in ms. */
    public static final long DEFAULT_DEADTIME_MS = 30_000;
    /** Below this initdead (ms) Heartbeat warns {@code Initial dead time [N ms] may be too small!}. */
    public static final long MIN_COMFORTABLE_INITDEAD_MS = 10_000;

    private ConfigValidator() {
    }

    /**
     * The outcome of validation.
     *
     * @param timing      the effective timers, defaults filled in (meaningful even when there are errors)
     * @param failback    the effective auto_failback (default {@link FailbackPolicy#LEGACY})
     * @param diagnostics the cross-field errors and warnings
     * @param defaults    the defaults that were applied, so none is applied silently
     */
    public record Result(Timing timing, FailbackPolicy failback, List<ConfigDiagnostic> diagnostics,
                         List<AppliedDefault> defaults) {
        public Result {
            Objects.requireNonNull(timing, "timing");
            Objects.requireNonNull(failback, "failback");
            diagnostics = List.copyOf(diagnostics);
            defaults = List.copyOf(defaults);
        }
    }

    /**
     * Applies the cross-field rules. Each diagnostic points at the line that set the offending value,
     * or line 0 of the file when the value was a default or something is missing.
     * <ul>
     *   <li>keepalive &gt; 0; deadtime &gt; 2 x keepalive, else ERROR
     *       {@code Dead time [D] is too small compared to keeplive [K]} (Heartbeat's spelling);</li>
     *   <li>deadping, if set, &gt; 2 x keepalive, else ERROR {@code Ping dead time [D] is too small compared
     *       to keeplive [K]};</li>
     *   <li>warntime (default deadtime/2) &gt; 0 (ERROR) and &lt; deadtime (WARNING otherwise);</li>
     *   <li>initdead (default {@link Timing#defaultInitdead}) &gt;= deadtime (ERROR), and a WARNING below
     *       10 s, as Heartbeat;</li>
     *   <li>at least one medium ({@code No heartbeat media defined}) and one node ({@code no nodes defined});
     *       exactly two nodes expected: WARNING for one, ERROR for more than two;</li>
     *   <li>the local node, if given, must be a {@code node} ({@code Current node [x] not in configuration!});</li>
     *   <li>an auth method must be configured;</li>
     *   <li>auto_failback legacy (Heartbeat's default) is deprecated: WARNING; jheartbeat treats it as on.</li>
     * </ul>
     *
     * @param haCf      the parsed ha.cf
     * @param auth      the parsed authkeys; its own errors are not repeated here
     * @param authFile  the authkeys path, to name in an auth diagnostic
     * @param localNode this machine's node name, when known (the daemon knows it; a lint run may not)
     * @return the effective timing and failback, diagnostics and applied defaults
     */
    public static Result validate(HaCf haCf, AuthKeysParser.Result auth, Path authFile, Optional<NodeName> localNode) {
        Path file = haCf.file();
        List<ConfigDiagnostic> out = new ArrayList<>();
        List<AppliedDefault> defaults = new ArrayList<>();
        long keepalive = valueOrDefault(haCf.keepaliveMs(), "keepalive", DEFAULT_KEEPALIVE_MS, "Heartbeat default", defaults);
        long deadtime = valueOrDefault(haCf.deadtimeMs(), "deadtime", DEFAULT_DEADTIME_MS, "Heartbeat default", defaults);
        long warntime = valueOrDefault(haCf.warntimeMs(), "warntime", deadtime / 2, "deadtime/2, as Heartbeat", defaults);
        long initdead = valueOrDefault(haCf.initdeadMs(), "initdead",
                Timing.defaultInitdead(Duration.ofMillis(deadtime)).toMillis(), "derived from deadtime, as Heartbeat", defaults);
        int keepaliveLine = line(haCf.keepaliveMs());
        int deadtimeLine = line(haCf.deadtimeMs());

        // a setting whose line was refused has its default in place: judging that against the others would
        // be a second message for one mistake (deadtime 3x would also draw "initdead is less than deadtime")
        java.util.Set<String> refused = haCf.rejected();
        boolean timingRefused = refused.contains("keepalive") || refused.contains("deadtime")
                || refused.contains("warntime") || refused.contains("initdead");
        if (keepalive <= 0) {
            out.add(ConfigDiagnostic.error(file, keepaliveLine, "keepalive must be more than 0 ms"));
        } else if (!timingRefused && deadtime <= 2 * keepalive) {
            out.add(ConfigDiagnostic.error(file, deadtimeLine > 0 ? deadtimeLine : keepaliveLine,
                    "Dead time [" + deadtime + "ms] is too small compared to keeplive [" + keepalive
                            + "ms]: deadtime must be more than twice keepalive, or a node would be declared"
                            + " dead after missing only two heartbeats"));
        }
        if (keepalive > 0 && !refused.contains("keepalive") && haCf.deadpingMs().isPresent() && haCf.deadpingMs().get().value() <= 2 * keepalive) {
            out.add(ConfigDiagnostic.error(file, haCf.deadpingMs().get().line(), "Ping dead time ["
                    + haCf.deadpingMs().get().value() + "ms] is too small compared to keeplive [" + keepalive
                    + "ms]: deadping must be more than twice keepalive, as Heartbeat requires"));
        }
        if (warntime <= 0 && !timingRefused) {
            out.add(ConfigDiagnostic.error(file, line(haCf.warntimeMs()), "warntime must be more than 0 ms"));
        } else if (warntime >= deadtime && !timingRefused) {
            out.add(ConfigDiagnostic.warning(file, line(haCf.warntimeMs()), "warntime [" + warntime
                    + "ms] is not below deadtime [" + deadtime + "ms]: no 'Late heartbeat' warning will come"
                    + " before a node is declared dead"));
        }
        if (initdead < deadtime && !timingRefused) {
            out.add(ConfigDiagnostic.error(file, line(haCf.initdeadMs()), "initdead [" + initdead
                    + "ms] is less than deadtime [" + deadtime + "ms]: initdead must be at least deadtime"));
        }
        if (initdead < MIN_COMFORTABLE_INITDEAD_MS && !timingRefused) {
            out.add(ConfigDiagnostic.warning(file, line(haCf.initdeadMs()), "Initial dead time [" + initdead
                    + " ms] may be too small! The peer may not be up within it after a reboot; 10 s or more"
                    + " is advised"));
        }
        if (haCf.media().isEmpty()) {
            out.add(ConfigDiagnostic.error(file, 0, "No heartbeat media defined: add a ucast, bcast or mcast line"));
        }
        checkNodes(haCf, localNode, out);
        checkPing(haCf, out);
        if (!haCf.pingNodes().isEmpty() && haCf.deadpingMs().isEmpty()) {
            defaults.add(new AppliedDefault("deadping", HaDurations.formatMillis(deadtime), "deadtime, as Heartbeat"));
        }
        if (auth.authKeys().isEmpty() && !auth.hasErrors()) {
            out.add(ConfigDiagnostic.error(authFile, 0, "Authentication configuration error: no auth method"));
        }
        FailbackPolicy failback = haCf.autoFailback().map(HaCf.Setting::value).orElse(FailbackPolicy.LEGACY);
        if (haCf.autoFailback().isEmpty()) {
            defaults.add(new AppliedDefault("auto_failback", "legacy", "Heartbeat default"));
        }
        if (failback == FailbackPolicy.LEGACY && !refused.contains("auto_failback")) {
            out.add(ConfigDiagnostic.warning(file, line(haCf.autoFailback()), "Deprecated 'legacy' auto_failback"
                    + " option selected" + (haCf.autoFailback().isEmpty() ? " (no auto_failback line: legacy is"
                    + " Heartbeat's default)" : "") + "; jheartbeat currently treats legacy like 'auto_failback on': set"
                    + " 'auto_failback on' or 'off' explicitly"));
        }
        Timing timing = new Timing(Duration.ofMillis(keepalive), Duration.ofMillis(deadtime),
                Duration.ofMillis(warntime), Duration.ofMillis(initdead));
        return new Result(timing, failback, out, defaults);
    }

    private static void checkNodes(HaCf haCf, Optional<NodeName> localNode, List<ConfigDiagnostic> out) {
        Path file = haCf.file();
        List<NodeDecl> nodes = haCf.nodes();
        if (nodes.isEmpty()) {
            out.add(ConfigDiagnostic.error(file, 0, "no nodes defined: add 'node NAME' lines for both nodes"
                    + " (names as 'uname -n' prints them)"));
        } else if (nodes.size() == 1) {
            out.add(ConfigDiagnostic.warning(file, nodes.get(0).line(), "only one node defined: jheartbeat is a"
                    + " two-node cluster manager and there is no peer to fail over to"));
        } else if (nodes.size() > 2) {
            out.add(ConfigDiagnostic.error(file, nodes.get(2).line(), nodes.size() + " nodes defined: jheartbeat"
                    + " supports exactly two (third node [" + nodes.get(2).name() + "])"));
        }
        if (localNode.isPresent() && !nodes.isEmpty() && !haCf.nodeNames().contains(localNode.get())) {
            out.add(ConfigDiagnostic.error(file, 0, "Current node [" + localNode.get()
                    + "] not in configuration! Add 'node " + localNode.get() + "' (the name 'uname -n' prints)"));
        }
    }

    /**
     * A ping node may not carry a cluster node's name (Heartbeat keeps one node table for both), and
     * the ipfail rule without ping nodes has nothing to compare: WARNING.
     */
    private static void checkPing(HaCf haCf, List<ConfigDiagnostic> out) {
        for (PingNodeDecl p : haCf.pingNodes()) {
            if (haCf.nodeNames().stream().anyMatch(n -> n.value().equalsIgnoreCase(p.name()))) {
                out.add(ConfigDiagnostic.error(haCf.file(), p.line(), "ping node [" + p.name() + "] has the name"
                        + " of a cluster node: a ping node is an address of a router or switch both nodes can"
                        + " reach, e.g. 'ping 198.18.0.1'"));
            }
        }
        if (haCf.ipfailLine().isPresent() && haCf.pingNodes().isEmpty()) {
            out.add(ConfigDiagnostic.warning(haCf.file(), haCf.ipfailLine().get(), "ipfail is enabled but no ping"
                    + " or ping_group line declares a ping node: it has nothing to compare; add e.g."
                    + " 'ping 198.18.0.1' (the router both nodes reach)"));
        }
    }

    private static long valueOrDefault(Optional<HaCf.Setting<Long>> setting, String directive, long fallback,
                                       String reason, List<AppliedDefault> defaults) {
        if (setting.isPresent()) {
            return setting.get().value();
        }
        defaults.add(new AppliedDefault(directive, HaDurations.formatMillis(fallback), reason));
        return fallback;
    }

    private static int line(Optional<? extends HaCf.Setting<?>> setting) {
        return setting.map(HaCf.Setting::line).orElse(0);
    }
}
