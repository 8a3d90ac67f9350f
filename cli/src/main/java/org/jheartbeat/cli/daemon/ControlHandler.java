package org.jheartbeat.cli.daemon;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jheartbeat.cli.logging.LogSetup;
import org.jheartbeat.cli.runtime.MonitorStatus;
import org.jheartbeat.sync.cluster.SyncRuntime;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.control.JsonText;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.resources.executor.ResourceGroupExecutor;

/**
 * Answers one control request ({@link ControlRequest}): status (text or JSON), cl_status, the
 * config digests ({@link org.jheartbeat.core.control.ConfigDigestReport}), the groups running here
 * (what {@code hb sync run} checks), a failure cleanup (which also clears the monitors' fail counts), or an
 * operator hand-over, which waits for the
 * exchange to end, at most its timeout. Runs on a control-server worker thread; only a hand-over waits
 * long (the loop answers snapshots within 5 s or the request fails with {@code ERR}).
 * {@code status} ends with {@code Log lines dropped: N}, {@code Journal events dropped: N} and
 * {@code Control clients: ...}, and {@code status-json} carries {@code "log_dropped":N},
 * {@code "journal_dropped":N} and {@code "control_clients":{...}}: lines the daemon's log outputs dropped
 * rather than block ({@code logDropped}, see {@link LogSetup}), events the journal dropped rather than block
 * the loop, and the control-socket clients that were refused or dropped ({@link ControlServer.Stats}).
 */
final class ControlHandler implements Function<ControlRequest, ControlResponse> {
    private final ClusterLoop loop;
    private final ClusterConfig config;
    private final SyncRuntime sync;
    private final LongSupplier logDropped;
    /** Events the journal dropped (its queue full); set by {@link #journalDropped}, 0 without a journal. */
    private LongSupplier journalDropped = () -> 0;
    private final Supplier<ControlServer.Stats> controlStats;
    private final Reloader reloader;
    private final ResourceGroupExecutor groups;

    /**
     * @param logDropped   log lines dropped so far by the daemon's log outputs
     * @param controlStats the control server's counters of refused and dropped clients
     */
    ControlHandler(ClusterLoop loop, ClusterConfig config, SyncRuntime sync, LongSupplier logDropped,
                   Supplier<ControlServer.Stats> controlStats) {
        this(loop, config, sync, logDropped, controlStats, null, null);
    }

    /** @param reloader answers {@code reload} (null: refused, the daemon cannot reload) */
    ControlHandler(ClusterLoop loop, ClusterConfig config, SyncRuntime sync, LongSupplier logDropped,
                   Supplier<ControlServer.Stats> controlStats, Reloader reloader) {
        this(loop, config, sync, logDropped, controlStats, reloader, null);
    }

    /**
     * @param reloader answers {@code reload} (null: refused, the daemon cannot reload)
     * @param groups   the group executor: monitoring fail counts for status, cleared by cleanup (null: none)
     */
    ControlHandler(ClusterLoop loop, ClusterConfig config, SyncRuntime sync, LongSupplier logDropped,
                   Supplier<ControlServer.Stats> controlStats, Reloader reloader, ResourceGroupExecutor groups) {
        this.reloader = reloader;
        this.groups = groups;
        this.loop = loop;
        this.config = config;
        this.sync = sync;
        this.logDropped = logDropped;
        this.controlStats = controlStats;
    }

    /**
     * Where status reads the journal's dropped events ({@code DaemonEvents#dropped}): {@code Journal events
     * dropped: N} in the text, {@code "journal_dropped":N} in the JSON.
     *
     * @return this handler
     */
    ControlHandler journalDropped(LongSupplier dropped) {
        this.journalDropped = java.util.Objects.requireNonNull(dropped, "dropped");
        return this;
    }

    /** @throws IllegalStateException for a request kind this handler does not know (a programming error) */
    @Override
    public ControlResponse apply(ControlRequest request) {
        if (request instanceof ControlRequest.Handover h) {
            return handover(h);
        }
        if (request instanceof ControlRequest.Cleanup c) {
            return cleanup(c);
        }
        if (request instanceof ControlRequest.Maintenance m) {
            return maintenance(m);
        }
        if (request instanceof ControlRequest.Reload) {
            return reloader == null ? ControlResponse.refused("this daemon cannot reload its configuration")
                    : reloader.reload("hb reload");
        }
        if (request instanceof ControlRequest.StonithStatus) {
            try {
                org.jheartbeat.core.loop.Fencer.Result r = loop.stonithStatus().get(120, TimeUnit.SECONDS);
                return r.fenced() ? ControlResponse.ok(r.detail() + "\n") : ControlResponse.error(r.detail());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ControlResponse.error("STONITH status not available: the daemon is shutting down");
            } catch (Exception e) {
                return ControlResponse.error("STONITH status not available: " + e);
            }
        }
        StatusSnapshot snap;
        try {
            if (request instanceof ControlRequest.ConfigDigest) {
                return ControlResponse.ok(loop.configDigests().get(5, TimeUnit.SECONDS).toText());
            }
            snap = loop.snapshot().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            return ControlResponse.error("status not available: " + e);
        }
        if (request instanceof ControlRequest.Status st) {
            ControlServer.Stats c = controlStats.get();
            org.jheartbeat.core.loop.MaintenanceView mv;
            try {
                mv = loop.maintenanceView().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                return ControlResponse.error("status not available: " + e);
            }
            return ControlResponse.ok(st.json()
                    ? statusJson(snap, mv, c) + "\n"
                    : snap.render() + mv.render() + sync.renderStatus() + MonitorStatus.render(monitorStatus()) + "Log lines dropped: " + logDropped.getAsLong() + "\n"
                            + "Journal events dropped: " + journalDropped.getAsLong() + "\n"
                            + "Control clients: " + c.malformed() + " bad requests, " + c.silent()
                            + " dropped for sending nothing, " + c.busy() + " turned away (busy), " + c.slowReaders()
                            + " did not read the answer, " + c.denied() + " changes denied\n");
        }
        if (request instanceof ControlRequest.ClStatus cl) {
            var a = org.jheartbeat.cli.runtime.ClStatus.answer(cl.args(), snap, current());
            return ControlResponse.ok(a.exitCode() + "\n" + a.output());
        }
        if (request instanceof ControlRequest.GroupsRunning) {
            return ControlResponse.ok(SyncRuntime.runningHere(snap).stream().sorted().map(k -> k + "\n")
                    .collect(java.util.stream.Collectors.joining()));
        }
        throw new IllegalStateException("unhandled control request " + request.toWire());
    }

    /**
     * The object of {@code hb status --json}: the snapshot's fields, then maintenance, sync, monitoring
     * and the daemon's own counters, written by one generator.
     */
    private String statusJson(StatusSnapshot snap, org.jheartbeat.core.loop.MaintenanceView mv, ControlServer.Stats c) {
        return JsonText.write(g -> {
            g.writeStartObject();
            snap.writeFields(g);
            mv.writeField(g);
            sync.writeStatusJson(g);
            MonitorStatus.write(g, monitorStatus());
            g.writeBooleanField("running", true);
            g.writeNumberField("log_dropped", logDropped.getAsLong());
            g.writeNumberField("journal_dropped", journalDropped.getAsLong());
            g.writeObjectFieldStart("control_clients");
            g.writeNumberField("bad_requests", c.malformed());
            g.writeNumberField("silent_dropped", c.silent());
            g.writeNumberField("turned_away", c.busy());
            g.writeNumberField("slow_readers", c.slowReaders());
            g.writeNumberField("denied", c.denied());
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /**
     * {@code hb cleanup [GROUP]}: clears failures (here and, through the peer, there); answers with the
     * resource groups as they stand afterwards. An unknown group is an error naming the groups there are.
     */
    private ControlResponse cleanup(ControlRequest.Cleanup c) {
        int index = -1;
        if (c.group().isPresent()) {
            String g = c.group().get();
            var groups = current().resourceGroups();
            for (int i = 0; i < groups.size() && index < 0; i++) {
                if (groups.get(i).key().equals(g) || g.equals(Integer.toString(i + 1))) {
                    index = i;
                }
            }
            if (index < 0) {
                // a wrong argument, not a refusal: trying again later would not help
                java.util.List<String> known = new java.util.ArrayList<>();
                for (int i = 0; i < groups.size(); i++) {
                    known.add((i + 1) + " " + groups.get(i).key());
                }
                return ControlResponse.error(ControlResponse.NO_SUCH_GROUP + g + " in haresources; "
                        + (known.isEmpty() ? "it has none" : "its groups are " + String.join(", ", known))
                        + ": name one by its key (the first resource of its line) or its number");
            }
        }
        try {
            loop.cleanup(index).get(5, TimeUnit.SECONDS);
            if (groups != null) {
                groups.clearFailures(index < 0 ? null : current().resourceGroups().get(index).key());
            }
            return ControlResponse.ok("cleared " + c.group().map(g -> "resource group " + g).orElse("every resource group")
                    + " (failures and monitor fail counts)\n" + groupsOnly(loop.snapshot().get(5, TimeUnit.SECONDS).render())
                    + MonitorStatus.render(monitorStatus()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ControlResponse.error("cleanup: the daemon is shutting down");
        } catch (Exception e) {
            return ControlResponse.error("cleanup failed: " + e);
        }
    }

    /**
     * {@code hb maintenance on|off|status [--node N | --group G]}: an unknown node or group is an
     * error ({@link ControlResponse#NO_SUCH_NODE}, {@link ControlResponse#NO_SUCH_GROUP}) with the nearest name; on/off answer once applied (off: after both nodes' probes), or are
     * refused with what to fix; status answers {@code on (why)} or {@code off} on its first line, then the
     * maintenance block of {@code hb status}.
     */
    private ControlResponse maintenance(ControlRequest.Maintenance m) {
        org.jheartbeat.core.takeover.Maintenance.Scope scope = m.scope();
        ClusterConfig c = current();
        switch (scope.kind()) {
            case NODE -> {
                java.util.List<String> names = c.nodes().stream().map(n -> n.value()).toList();
                if (!names.contains(scope.name())) {
                    return ControlResponse.error(ControlResponse.NO_SUCH_NODE + scope.name() + " in ha.cf" + org.jheartbeat.core.config
                            .Suggestions.closest(scope.name(), names).map(s -> " (did you mean " + s + "?)").orElse("")
                            + "; nodes: " + String.join(", ", names));
                }
            }
            case GROUP -> {
                java.util.List<String> keys = c.resourceGroups().stream().map(g -> g.key()).toList();
                String key = scope.name();
                if (key.matches("[0-9]{1,4}") && Integer.parseInt(key) >= 1 && Integer.parseInt(key) <= keys.size()) {
                    key = keys.get(Integer.parseInt(key) - 1);
                }
                if (!keys.contains(key)) {
                    return ControlResponse.error(ControlResponse.NO_SUCH_GROUP + scope.name() + " in haresources"
                            + org.jheartbeat.core.config.Suggestions.closest(scope.name(), keys)
                                    .map(s -> " (did you mean " + s + "?)").orElse("")
                            + "; name it by its key (the first resource of its line) or its number (hb resources list)");
                }
                scope = new org.jheartbeat.core.takeover.Maintenance.Scope(scope.kind(), key);
            }
            default -> { }
        }
        try {
            if (m.action() == ControlRequest.MaintenanceAction.STATUS) {
                org.jheartbeat.core.loop.MaintenanceView v = loop.maintenanceView().get(5, TimeUnit.SECONDS);
                String line = v.setting().has(scope) ? "on (" + scope.describe() + ")"
                        : scope.kind() == org.jheartbeat.core.takeover.Maintenance.Kind.CLUSTER && v.setting().any()
                        ? "off cluster-wide; on for " + v.setting().describe()
                        : scope.kind() == org.jheartbeat.core.takeover.Maintenance.Kind.GROUP && v.groups().containsKey(scope.name())
                        ? "on (" + v.groups().get(scope.name()) + ")" : "off";
                return ControlResponse.ok(line + "\n" + v.render());
            }
            ClusterLoop.MaintenanceResult r = loop.maintenance(scope, m.action() == ControlRequest.MaintenanceAction.ON)
                    .get(ClusterLoop.PEER_PROBE_TIMEOUT_S + 120, TimeUnit.SECONDS);
            if (!r.ok()) {
                return ControlResponse.refused(r.detail());
            }
            return ControlResponse.ok(r.detail() + "\n" + loop.maintenanceView().get(5, TimeUnit.SECONDS).render());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ControlResponse.error("maintenance: the daemon is shutting down");
        } catch (Exception e) {
            return ControlResponse.error("maintenance " + m.action().wireName() + " failed: " + e);
        }
    }

    /** An operator standby or takeover: done (OK), refused at once (REFUSED), or failed/timed out (ERR). */
    private ControlResponse handover(ControlRequest.Handover h) {
        String what = h.kind().wireName() + " " + h.set();
        try {
            java.time.Instant asked = sync.clock().instant(); // on the clock the sync jobs' start times are
            ClusterLoop.HandoverResult r = loop.handover(h.kind() == ControlRequest.HandoverKind.TAKEOVER, h.set())
                    .get(h.timeoutSeconds(), TimeUnit.SECONDS);
            if (r.outcome() == org.jheartbeat.core.takeover.TakeoverMachine.Handover.REFUSED) {
                return ControlResponse.refused(r.detail());
            }
            StringBuilder where = new StringBuilder(groupsOnly(loop.snapshot().get(5, TimeUnit.SECONDS).render()));
            for (String w : sync.failedHandoverSyncs(asked)) {
                where.append(w).append('\n');
            }
            return r.done() ? ControlResponse.ok(r.detail() + "\n" + where)
                    : new ControlResponse(ControlResponse.Kind.ERROR, r.detail(), where.toString());
        } catch (java.util.concurrent.TimeoutException e) {
            return ControlResponse.error(what + " did not finish within " + h.timeoutSeconds()
                    + " s; it may still complete (see hb status)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ControlResponse.error(what + ": the daemon is shutting down");
        } catch (Exception e) {
            return ControlResponse.error(what + " failed: " + e);
        }
    }

    /** The configuration the daemon runs now: as a reload applied it, else the one it started with. */
    private ClusterConfig current() {
        ClusterConfig c = loop == null ? null : loop.config(); // no loop: a handler asked only about the config
        return c != null ? c : config;
    }

    /** The "Resource groups:" block of a rendered status: what a hand-over changed. */
    static String groupsOnly(String rendered) {
        int from = rendered.indexOf("Resource groups:");
        if (from < 0) {
            return rendered;
        }
        int to = rendered.indexOf("\nConfig:", from);
        if (to < 0) {
            to = rendered.indexOf("\nFencing:", from);
        }
        return to < 0 ? rendered.substring(from) : rendered.substring(from, to + 1);
    }

    private java.util.Map<String, java.util.List<org.jheartbeat.resources.monitor.GroupMonitor.ResourceWatch>>
            monitorStatus() {
        return groups == null ? java.util.Map.of() : groups.monitorStatus();
    }
}
