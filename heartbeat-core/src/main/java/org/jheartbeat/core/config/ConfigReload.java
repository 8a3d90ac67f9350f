package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decides what a configuration reload ({@code hb reload}, SIGHUP, {@code systemctl reload}) applies
 * while the node runs and what waits for a restart. Pure: the running configuration and the one just
 * read and validated in, the {@link Plan} out; nothing is read, logged or applied here.
 *
 * <p>Applied live (what can change without moving a running group):
 * <ul>
 *   <li>haresources: groups added (a new key) or removed (a key gone). Groups are matched by key, so
 *       a group that only moved to another line, or whose line number changed, is unchanged;</li>
 *   <li>ha.cf timings: keepalive, deadtime, warntime, initdead (effective values, after defaults);</li>
 *   <li>authkeys: the keys and the {@code auth} index used to sign.</li>
 * </ul>
 * Needing a restart, reported and not applied: node names, {@code udpport}, media lines, log
 * settings ({@code logfile}, {@code debugfile}, {@code logfacility}), STONITH lines,
 * ping nodes ({@code ping}, {@code ping_group}, {@code deadping}, {@code respawn ... ipfail}), {@code watchdog},
 * {@code auto_failback}, and a group whose definition changed under the same key (its preferred
 * node or resources): the running definition is kept, so both nodes keep agreeing on what runs.
 * Heartbeat 3.0.6 re-reads its configuration on SIGHUP ({@code heartbeat -r}); jheartbeat applies
 * the parts listed here live and reports the rest.
 */
public final class ConfigReload {
    private ConfigReload() {
    }

    /** What a change does to the running node. */
    public enum Effect {
        /** Applied now. */
        APPLIED,
        /** Read but not applied: takes effect when the daemon is restarted. */
        NEEDS_RESTART
    }

    /**
     * One difference between the running configuration and the file.
     *
     * @param file   the file it is in: {@code ha.cf}, {@code authkeys} or {@code haresources}
     * @param what   one line, e.g. {@code keepalive 500 ms -> 1000 ms}
     * @param effect applied now or on restart
     */
    public record Change(String file, String what, Effect effect) {
        public Change {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(what, "what");
            Objects.requireNonNull(effect, "effect");
        }

        /** The line {@code hb reload} prints and the daemon logs, e.g. {@code ha.cf: udpport 694 -> 695 (needs a restart; not applied)}. */
        public String describe() {
            return file + ": " + what + (effect == Effect.APPLIED ? " (applied)" : " (needs a restart; not applied)");
        }
    }

    /**
     * What a reload does.
     *
     * @param applied the configuration to run from now on: the new file's live parts (timings, keys,
     *                groups added and removed) on top of the running configuration's other parts
     * @param changes every difference, in file order (ha.cf, authkeys, haresources); empty when
     *                nothing changed
     */
    public record Plan(ClusterConfig applied, List<Change> changes) {
        public Plan {
            Objects.requireNonNull(applied, "applied");
            changes = List.copyOf(changes);
        }

        /** Whether the set of resource groups changes (groups to start or stop). */
        public boolean groupsChange(ClusterConfig running) {
            return !keys(running.resourceGroups()).equals(keys(applied.resourceGroups()));
        }

        /** The changes that wait for a restart. */
        public List<Change> needingRestart() {
            return changes.stream().filter(c -> c.effect() == Effect.NEEDS_RESTART).toList();
        }
    }

    /**
     * Compares {@code running} with {@code next}.
     *
     * @param running the configuration the node runs (as applied by earlier reloads)
     * @param next    the configuration just read; validated (no ERROR diagnostics)
     * @return what to apply, and every change with its effect
     */
    public static Plan plan(ClusterConfig running, ClusterConfig next) {
        Objects.requireNonNull(running, "running");
        Objects.requireNonNull(next, "next");
        List<Change> changes = new ArrayList<>();
        Timing a = running.timing();
        Timing b = next.timing();
        timing(changes, "keepalive", a.keepalive(), b.keepalive());
        timing(changes, "deadtime", a.deadtime(), b.deadtime());
        timing(changes, "warntime", a.warntime(), b.warntime());
        timing(changes, "initdead", a.initdead(), b.initdead());
        if (running.udpPort() != next.udpPort()) {
            restart(changes, "ha.cf", "udpport " + running.udpPort() + " -> " + next.udpPort());
        }
        if (!running.nodes().equals(next.nodes())) {
            restart(changes, "ha.cf", "nodes " + names(running.nodes()) + " -> " + names(next.nodes()));
        }
        List<String> mediaA = running.media().stream().map(ConfigReload::describe).toList();
        List<String> mediaB = next.media().stream().map(ConfigReload::describe).toList();
        if (!mediaA.equals(mediaB)) {
            restart(changes, "ha.cf", "media " + String.join(", ", mediaA) + " -> " + String.join(", ", mediaB));
        }
        if (!running.logging().equals(next.logging())) {
            restart(changes, "ha.cf", "logging (logfile, debugfile, logfacility) changed");
        }
        if (!withoutLines(running.stonith()).equals(withoutLines(next.stonith()))) {
            restart(changes, "ha.cf", "STONITH lines changed");
        }
        if (!pingWithoutLines(running.ping()).equals(pingWithoutLines(next.ping()))) {
            restart(changes, "ha.cf", "ping nodes, deadping or ipfail changed");
        }
        if (!running.watchdog().equals(next.watchdog())) {
            restart(changes, "ha.cf", "watchdog " + running.watchdog().map(Path::toString).orElse("none") + " -> "
                    + next.watchdog().map(Path::toString).orElse("none"));
        }
        if (running.autoFailback() != next.autoFailback()) {
            restart(changes, "ha.cf", "auto_failback " + running.autoFailback().configName() + " -> "
                    + next.autoFailback().configName());
        }
        boolean keysChanged = !ConfigDigest.canonicalAuthkeys(running.authKeys())
                .equals(ConfigDigest.canonicalAuthkeys(next.authKeys()));
        if (keysChanged) {
            changes.add(new Change("authkeys", "keys changed (signing with auth " + next.authKeys().signingIndex()
                    + ")", Effect.APPLIED));
        } else if (running.authKeys().signingIndex() != next.authKeys().signingIndex()) {
            changes.add(new Change("authkeys", "auth " + running.authKeys().signingIndex() + " -> "
                    + next.authKeys().signingIndex(), Effect.APPLIED));
        }
        if (!running.authKeys().rolloverUntil().equals(next.authKeys().rolloverUntil())) {
            changes.add(new Change("jheartbeat.yaml", next.authKeys().rolloverUntil().map(t -> "key roll-over: every"
                    + " key of authkeys accepted until " + t).orElse("key roll-over closed: only key "
                    + next.authKeys().signingIndex() + " (auth " + next.authKeys().signingIndex() + ") accepted"),
                    Effect.APPLIED));
        }
        Map<String, ResourceGroupDecl> before = byKey(running.resourceGroups());
        Map<String, ResourceGroupDecl> after = byKey(next.resourceGroups());
        List<ResourceGroupDecl> groups = new ArrayList<>();
        for (ResourceGroupDecl g : next.resourceGroups()) {
            ResourceGroupDecl old = before.get(g.key());
            if (old == null) {
                changes.add(new Change("haresources", "resource group " + g.key() + " added (preferred node "
                        + g.preferredNode() + ")", Effect.APPLIED));
                groups.add(g);
            } else if (!old.toString().equals(g.toString())) {
                restart(changes, "haresources", "resource group " + g.key() + " changed from '" + old + "' to '" + g
                        + "' (the running definition is kept; or remove the line, reload, add it back, reload)");
                groups.add(old);
            } else {
                groups.add(old); // the same group: the running declaration (its line number may differ)
            }
        }
        for (ResourceGroupDecl g : running.resourceGroups()) {
            if (!after.containsKey(g.key())) {
                changes.add(new Change("haresources", "resource group " + g.key() + " removed", Effect.APPLIED));
            }
        }
        ClusterConfig applied = new ClusterConfig(running.configDir(), next.timing(), running.udpPort(),
                running.nodes(), running.media(), running.autoFailback(), running.logging(), next.authKeys(),
                groups, running.stonith(), running.ping(), running.watchdog());
        return new Plan(applied, changes);
    }

    private static void timing(List<Change> out, String name, Duration a, Duration b) {
        if (!a.equals(b)) {
            out.add(new Change("ha.cf", name + " " + a.toMillis() + " ms -> " + b.toMillis() + " ms", Effect.APPLIED));
        }
    }

    /** Ping nodes (name, hosts, group or not), deadping and ipfail, without the lines they are on. */
    private static List<Object> pingWithoutLines(PingSettings p) {
        return List.of(p.nodes().stream().map(n -> List.of(n.name(), n.hosts(), n.group())).toList(),
                p.deadping(), p.ipfail());
    }

    private static void restart(List<Change> out, String file, String what) {
        out.add(new Change(file, what, Effect.NEEDS_RESTART));
    }

    private static String names(List<NodeName> nodes) {
        return String.join(" ", nodes.stream().map(NodeName::value).toList());
    }

    private static List<String> keys(List<ResourceGroupDecl> groups) {
        return groups.stream().map(ResourceGroupDecl::key).sorted().toList();
    }

    private static Map<String, ResourceGroupDecl> byKey(List<ResourceGroupDecl> groups) {
        Map<String, ResourceGroupDecl> out = new LinkedHashMap<>();
        groups.forEach(g -> out.putIfAbsent(g.key(), g));
        return out;
    }

    private static List<StonithDecl> withoutLines(List<StonithDecl> list) {
        return list.stream().map(d -> new StonithDecl(d.fromNode(), d.type(), d.params(), d.configFile(), 0)).toList();
    }

    /** A medium as written in ha.cf, without its line number. */
    static String describe(MediumDecl m) {
        if (m instanceof MediumDecl.Ucast u) {
            return "ucast " + u.iface() + " " + u.peer() + (u.port() > 0 ? ":" + u.port() : "");
        } else if (m instanceof MediumDecl.Bcast b) {
            return "bcast " + b.iface() + (b.port() > 0 ? ":" + b.port() : "");
        } else if (m instanceof MediumDecl.Mcast mc) {
            return "mcast " + mc.iface() + " " + mc.group() + " " + mc.port() + " " + mc.ttl() + " " + (mc.loop() ? 1 : 0);
        } else if (m instanceof MediumDecl.Serial s) {
            return "serial " + s.device() + " " + s.baud();
        }
        throw new IllegalArgumentException("unknown medium " + m);
    }
}
