package org.jheartbeat.cli.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.EventJournal;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.EventSink;
import org.jheartbeat.core.journal.EventSinks;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.takeover.ResourceSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's events: the one place its sinks are composed ({@link #sink()}: the journal in the state
 * directory, then any other sink added in {@link #open}), the answer to the control request {@code events},
 * and the operator's requests as events with who asked ({@link #answering}). A journal that cannot be opened
 * is one ERROR line and the daemon runs without it: losing the record of events is no reason to stop a node.
 */
final class DaemonEvents implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");
    /** Largest {@code events} answer body, in bytes: under the control socket's 1 MiB, with room for its head. */
    static final int MAX_ANSWER_BYTES = ControlServer.MAX_RESPONSE - 4096;

    private final EventJournal journal;
    private final EventSink sinks;
    private final String node;
    private final Clock wall;

    private final java.util.Optional<org.jheartbeat.cli.alert.AlertDispatcher> alerts;

    private DaemonEvents(EventJournal journal, EventSink sinks, String node, Clock wall,
                         java.util.Optional<org.jheartbeat.cli.alert.AlertDispatcher> alerts) {
        this.alerts = alerts;
        this.journal = journal;
        this.sinks = sinks;
        this.node = node;
        this.wall = wall;
    }

    /** Opens the journal of {@code state}, without alerts. */
    static DaemonEvents open(StateDirectory state, String node, Clock wall) {
        return open(state, node, wall, org.jheartbeat.cli.config.AlertSettings.NONE);
    }

    /**
     * Opens the journal of {@code state} and composes the sinks.
     *
     * @param node this node's name, stamped on the events recorded here
     * @param wall the daemon's wall clock
     * @param alertRules jheartbeat.yaml's {@code alerts:}; a dispatcher is added as a sink when there is any
     */
    static DaemonEvents open(StateDirectory state, String node, Clock wall,
                             org.jheartbeat.cli.config.AlertSettings alertRules) {
        EventJournal journal = null;
        try {
            journal = EventJournal.open(state.path());
        } catch (IOException | RuntimeException e) {
            LOG.error("cannot open the event journal in {}: {}; events are not kept (hb events will show none)",
                    state.path(), e.toString());
        }
        List<String> names = new ArrayList<>();
        List<EventSink> sinks = new ArrayList<>();
        // the journal numbers each event as it queues it; the sinks after it get the numbered event
        EventJournal numbering = journal;
        // further sinks (alerts, ...) are added here, one line each
        java.util.Optional<org.jheartbeat.cli.alert.AlertDispatcher> alerts = alertRules.rules().isEmpty()
                ? java.util.Optional.empty() : java.util.Optional.of(org.jheartbeat.cli.alert.AlertDispatcher.start(
                        alertRules, node, org.jheartbeat.core.time.MonotonicClock.system(), wall));
        alerts.ifPresent(a -> { names.add("alerts"); sinks.add(a); });
        EventSinks rest = new EventSinks(names, sinks);
        EventSink all = numbering == null ? rest : e -> rest.record(numbering.append(e));
        return new DaemonEvents(journal, all, node, wall, alerts);
    }

    /** Where the loop and the daemon hand their events: every sink, each failure caught and counted. */
    EventSink sink() {
        return sinks;
    }

    /** Records {@code kind} on this node now. */
    void record(EventKind kind, String subject, String cause) {
        sinks.record(ClusterEvent.of(wall.millis(), node, kind, subject, cause));
    }

    /**
     * What monitoring tells: a group that failed beyond repair goes to {@code loop} (which records
     * {@code monitor-failed} and moves it); a resource restarted in place is recorded here as {@code monitor-failed}
     * with the restart in its cause; a group seen serving after its start goes to {@code loop} too, which records
     * {@code group-served} on its thread (after the start's {@code group-started}). Called on a group worker
     * thread; never blocks.
     */
    org.jheartbeat.resources.executor.ResourceGroupExecutor.FailureListener monitoring(
            org.jheartbeat.core.loop.ClusterLoop loop) {
        return new org.jheartbeat.resources.executor.ResourceGroupExecutor.FailureListener() {
            @Override
            public void groupFailed(String groupKey, String detail) {
                loop.groupFailedRunning(groupKey, detail);
            }

            @Override
            public void groupRestarted(String groupKey, String detail) {
                record(EventKind.MONITOR_FAILED, groupKey, detail);
            }

            @Override
            public void groupServed(String groupKey, String detail, long afterMillis) {
                loop.groupServed(groupKey, detail, afterMillis); // on the loop thread: after its group-started
            }
        };
    }

    /** Events dropped by the journal (its queue full, or closed); 0 without a journal. */
    long dropped() {
        return journal == null ? 0 : journal.dropped();
    }

    /**
     * The control handler with {@code events} answered here, and each operator request that changes the cluster
     * (standby, takeover, failback, cleanup, maintenance on/off) recorded once answered, at the time it
     * was asked, with its caller ({@link ControlServer#requester()}), how long it took and how it ended.
     */
    Function<ControlRequest, ControlResponse> answering(Function<ControlRequest, ControlResponse> handler) {
        return request -> {
            if (request instanceof ControlRequest.Events e) {
                return answer(e);
            }
            long asked = wall.millis();
            ControlResponse r = handler.apply(request);
            operatorEvent(request, r).ifPresent(ev -> sinks.record(new ClusterEvent(0, asked, node, ev.kind(),
                    ev.subject(), ev.cause(), ControlServer.requester(), Math.max(0, wall.millis() - asked))));
            return r;
        };
    }

    /** The event an operator request makes, if it makes one: kind, subject and cause (the outcome). */
    static java.util.Optional<ClusterEvent> operatorEvent(ControlRequest request, ControlResponse r) {
        String outcome = r.ok() ? firstLine(r.body()) : (r.refused() ? "refused: " : "failed: ") + r.error();
        EventKind kind;
        String subject;
        if (request instanceof ControlRequest.Handover h) {
            kind = h.kind() == ControlRequest.HandoverKind.TAKEOVER ? EventKind.TAKEOVER
                    : h.set() == ResourceSet.FOREIGN ? EventKind.FAILBACK : EventKind.STANDBY;
            subject = h.set().wireName();
        } else if (request instanceof ControlRequest.Cleanup c) {
            kind = EventKind.CLEANUP;
            subject = c.group().orElse("all");
        } else if (request instanceof ControlRequest.Maintenance m && m.action() != ControlRequest.MaintenanceAction.STATUS) {
            kind = m.action() == ControlRequest.MaintenanceAction.ON ? EventKind.MAINTENANCE_ON : EventKind.MAINTENANCE_OFF;
            subject = m.scope().kind() == org.jheartbeat.core.takeover.Maintenance.Kind.CLUSTER ? "cluster"
                    : m.scope().kind().name().toLowerCase(java.util.Locale.ROOT) + " " + m.scope().name();
        } else {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(ClusterEvent.of(0, "", kind, subject, outcome));
    }

    /**
     * A reload ended ({@link Reloader#afterEach}): recorded with its outcome, refused or failed ones too, and who
     * asked: the control socket's caller for {@code hb reload}, else the trigger ({@code SIGHUP}).
     */
    void reloaded(String trigger, ControlResponse r) {
        String who = ControlServer.requester();
        String outcome = r.ok() ? r.body().strip().replace('\n', ';') : (r.refused() ? "refused: " : "failed: ") + r.error();
        sinks.record(new ClusterEvent(0, wall.millis(), node, EventKind.RELOAD, "configuration", outcome,
                who.isEmpty() ? trigger : who, -1));
    }

    /**
     * {@code events SINCE_MS MAX}: the journal's lines, newest kept when the answer would pass
     * {@link #MAX_ANSWER_BYTES}.
     */
    ControlResponse answer(ControlRequest.Events e) {
        if (journal == null) {
            return ControlResponse.error("this daemon keeps no event journal (it could not be opened; see its log)");
        }
        List<ClusterEvent> events;
        try {
            events = journal.read(e.sinceMillis(), e.max());
        } catch (IOException | RuntimeException ex) {
            return ControlResponse.error("cannot read the event journal " + journal.current() + ": " + ex);
        }
        List<String> lines = new ArrayList<>();
        long bytes = 0;
        for (int i = events.size() - 1; i >= 0; i--) {
            String line = EventCodec.toJson(events.get(i)) + "\n";
            bytes += line.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_ANSWER_BYTES) {
                break;
            }
            lines.add(line);
        }
        StringBuilder body = new StringBuilder();
        for (int i = lines.size() - 1; i >= 0; i--) {
            body.append(lines.get(i));
        }
        return ControlResponse.ok(body.toString());
    }

    private static String firstLine(String body) {
        int nl = body.indexOf('\n');
        String line = nl < 0 ? body : body.substring(0, nl);
        return line.isBlank() ? "done" : line;
    }

    /** The alert dispatcher's figures; empty when jheartbeat.yaml has no {@code alerts:}. */
    java.util.Optional<org.jheartbeat.cli.alert.AlertDispatcher.Stats> alertStats() {
        return alerts.map(org.jheartbeat.cli.alert.AlertDispatcher::stats);
    }

    /** Writes what is queued and closes the journal; stops the alert threads. */
    @Override
    public void close() {
        alerts.ifPresent(org.jheartbeat.cli.alert.AlertDispatcher::close);
        if (journal != null) {
            journal.close();
        }
    }
}
