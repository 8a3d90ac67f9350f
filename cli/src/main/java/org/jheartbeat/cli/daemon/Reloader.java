package org.jheartbeat.cli.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jheartbeat.cli.config.AuthkeysPolicy;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.HostChecks;
import org.jheartbeat.cli.runtime.SyncConfigFile;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.ConfigReload;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.loop.ClusterLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's configuration reload ({@code hb reload}, SIGHUP, {@code systemctl reload}). Reads the config
 * directory off the loop thread with the checks of {@code hb config check}
 * and of daemon start (ha.cf, authkeys with its owner and mode, haresources, host checks, sync.yaml,
 * jheartbeat.yaml);
 * a changed sync.yaml or jheartbeat.yaml is reported as needing a restart;
 * on any ERROR nothing is applied, every message is logged with its {@code file:line}, and the node
 * goes on with the configuration it runs (its authkeys included: never a half-configured node).
 * Otherwise {@link ConfigReload#plan} decides what applies live and what needs a restart, the cluster
 * loop applies the plan ({@link ClusterLoop#reconfigure}), and each change is logged, one line each
 * ({@code Reload: ...}; WARN for those needing a restart). One reload at a time.
 */
final class Reloader {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");
    /** How long the loop waits for groups starting or stopping before a reload that changes groups, in s. */
    static final long GROUPS_WAIT_S = 20;
    /** Start of the {@code ERR} line for an invalid configuration ({@code hb reload} exits 2 on it). */
    static final String CONFIG_ERRORS = "configuration errors in ";

    private final Path configDir;
    private final NodeName me;
    private final ClusterLoop loop;
    private ClusterConfig running;
    /** Keeps the groups the node may run (the state directory) before a reload applies them; nothing by default. */
    private java.util.function.Consumer<List<org.jheartbeat.core.config.ResourceGroupDecl>> groupsKeeper = g -> { };
    /** sync.yaml and jheartbeat.yaml as the daemon read them at start ("" when absent): changes need a restart. */
    private final java.time.Clock wall;
    private final java.util.Map<String, Object> restartOnly = new java.util.LinkedHashMap<>();

    private java.util.function.BiConsumer<String, ControlResponse> afterEach = (t, r) -> { };

    /**
     * Where the groups of each reload are kept before the loop applies them (the daemon: the state
     * directory's {@code groups}, so that a later start releases a group a reload added and the file
     * then dropped). Called on the reloading thread.
     */
    void keepGroups(java.util.function.Consumer<List<org.jheartbeat.core.config.ResourceGroupDecl>> keeper) {
        this.groupsKeeper = java.util.Objects.requireNonNull(keeper, "keeper");
    }

    /**
     * @param running the configuration the daemon started with
     * @param wall    wall time, for the end of a key roll-over window
     */
    Reloader(Path configDir, NodeName me, ClusterConfig running, ClusterLoop loop, java.time.Clock wall) {
        this.wall = wall;
        this.configDir = configDir;
        this.me = me;
        this.running = running;
        this.loop = loop;
        for (String name : List.of(SyncConfigFile.NAME, org.jheartbeat.cli.config.JheartbeatYaml.NAME)) {
            restartOnly.put(name, read(name));
        }
    }

    /**
     * Reloads.
     *
     * @param trigger what asked, for the log ({@code hb reload}, {@code SIGHUP})
     * @return OK with one line per change ({@code no changes} when none); ERROR {@code configuration
     *         errors in DIR; nothing applied} with the {@code file:line} messages as body; REFUSED when
     *         groups stayed in flux; ERROR when the loop could not apply it
     */
    synchronized ControlResponse reload(String trigger) {
        ControlResponse r = reloadNow(trigger);
        afterEach.accept(trigger, r);
        return r;
    }

    /** What runs after each reload, with its trigger and answer (the event journal); on the reloading thread. */
    void afterEach(java.util.function.BiConsumer<String, ControlResponse> hook) {
        this.afterEach = java.util.Objects.requireNonNull(hook, "hook");
    }

    private ControlResponse reloadNow(String trigger) {
        LOG.info("Reloading configuration from {} ({})", configDir, trigger);
        ConfigLoadResult loaded = ConfigLoader.load(configDir, Optional.of(me));
        List<ConfigDiagnostic> problems = new ArrayList<>(loaded.diagnostics());
        List<HostChecks.MissingScript> missing = List.of();
        if (loaded.config().isPresent()) {
            HostChecks hosts = new HostChecks(Path.of("/etc/init.d"));
            problems.addAll(hosts.check(loaded.config().get(), true)); // this daemon holds the media
            // a missing resource script fails only its group, at reload as at start
            missing = hosts.missingScripts(configDir, loaded.config().get().resourceGroups());
            problems.removeAll(missing.stream().map(HostChecks.MissingScript::diagnostic).toList());
        }
        List<String> errors = new ArrayList<>(problems.stream().filter(ConfigDiagnostic::isError)
                .map(ConfigDiagnostic::format).toList());
        if (errors.isEmpty() && loaded.config().isPresent()) {
            try {
                SyncConfigFile.load(configDir, loaded.config());
            } catch (UserException e) {
                errors.add(e.getMessage());
            }
            // a changed jheartbeat.yaml only applies at the next start, but one the next start would refuse
            // must not be answered "needs a restart" as if it were fine
            try {
                org.jheartbeat.cli.config.JheartbeatYaml y = org.jheartbeat.cli.config.JheartbeatYaml.load(configDir,
                        loaded.config());
                for (ConfigDiagnostic d : AuthkeysPolicy.check(loaded.config().get(), y, wall.instant())) {
                    if (d.isError()) {
                        errors.add(d.format());
                    } else {
                        LOG.warn("Reload: {}", d.format());
                    }
                }
                // the authkeys: section (a key roll-over window) applies now; the rest of the file at the next start
                loaded = new ConfigLoadResult(Optional.of(AuthkeysPolicy.apply(loaded.config().get(), y)),
                        loaded.diagnostics());
            } catch (UserException e) {
                errors.add(e.getMessage());
            }
        }
        if (!errors.isEmpty() || loaded.config().isEmpty()) {
            errors.forEach(line -> LOG.error("Reload: {}", line));
            String why = CONFIG_ERRORS + configDir + "; nothing applied, the node runs on as before"
                    + " (authkeys included)";
            LOG.error("Reload failed: {}", why);
            return new ControlResponse(ControlResponse.Kind.ERROR, why,
                    errors.stream().map(l -> l + "\n").reduce("", String::concat));
        }
        ConfigReload.Plan plan = ConfigReload.plan(running, loaded.config().get());
        java.util.Set<String> known = new java.util.HashSet<>();
        running.resourceGroups().forEach(g -> known.add(g.key()));
        for (HostChecks.MissingScript m : missing) {
            if (!known.contains(m.key())) {
                LOG.error(ClusterLoop.CRIT, "Resource group {} cannot start on this node: {} ({}:{}); the other groups"
                        + " run", m.key(), m.diagnostic().message(), m.diagnostic().file(), m.diagnostic().line());
            }
        }
        List<ConfigReload.Change> changes = new ArrayList<>(plan.changes());
        restartOnly.forEach((name, text) -> {
            if (!read(name).equals(text)) {
                changes.add(new ConfigReload.Change(name, "changed", ConfigReload.Effect.NEEDS_RESTART));
            }
        });
        if (changes.isEmpty()) {
            LOG.info("Reload: no changes.");
            return ControlResponse.ok("no changes\n");
        }
        if (changes.stream().anyMatch(c -> c.effect() == ConfigReload.Effect.APPLIED)) {
            try {
                groupsKeeper.accept(plan.applied().resourceGroups());
                loop.reconfigure(plan.applied(), TimeUnit.SECONDS.toNanos(GROUPS_WAIT_S))
                        .get(GROUPS_WAIT_S + 5, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                String why = e.getCause() != null ? e.getCause().getMessage() : e.toString();
                LOG.warn("Reload not applied: {}", why);
                return ControlResponse.refused(why);
            } catch (TimeoutException e) {
                LOG.error("Reload: the cluster loop did not apply the configuration within {} s", GROUPS_WAIT_S + 5);
                return ControlResponse.error("the cluster loop did not apply the configuration in time; see the log");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ControlResponse.error("reload interrupted: the daemon is shutting down");
            }
            running = plan.applied();
        }
        StringBuilder body = new StringBuilder();
        for (ConfigReload.Change c : changes) {
            if (c.effect() == ConfigReload.Effect.APPLIED) {
                LOG.info("Reload: {}", c.describe());
            } else {
                LOG.warn("Reload: {}", c.describe());
            }
            body.append(c.describe()).append('\n');
        }
        long restart = changes.stream().filter(c -> c.effect() == ConfigReload.Effect.NEEDS_RESTART).count();
        LOG.info("Reload done: {} change(s) applied, {} need a restart.", changes.size() - restart, restart);
        return ControlResponse.ok(body.toString());
    }

    /** A restart-only file's contents to compare: jheartbeat.yaml's settings but its authkeys: section, else the text. */
    private Object read(String name) {
        Path file = configDir.resolve(name);
        if (name.equals(org.jheartbeat.cli.config.JheartbeatYaml.NAME)) {
            try {
                return org.jheartbeat.cli.config.JheartbeatYaml.load(configDir, Optional.empty()).withoutAuthkeys();
            } catch (UserException e) {
                return "invalid: " + e.getMessage();
            }
        }
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }
}
