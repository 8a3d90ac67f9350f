package org.jheartbeat.resources.executor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.jheartbeat.resources.monitor.GroupMonitor;
import org.jheartbeat.resources.monitor.MonitorSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Monitoring inside {@link ResourceGroupExecutor} on a fake clock and a hand-fired timer (no
 * sleeping): checks are armed only while a group runs here, run on the group's own queue (never
 * beside a start or stop of it), a stale check armed before a stop does nothing, a failure beyond
 * repair reaches the failure listener once, and cleanup clears the fail counts. Futures are waited
 * for with a bound that only catches hangs.
 */
class GroupMonitoringTest {
    private static final long S = 1_000_000_000L;
    private static final long HANG_GUARD_S = 30;

    private long now = 10 * S;
    private final List<String> journal = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Boolean> running = Collections.synchronizedMap(new HashMap<>());
    private final List<Object[]> armed = Collections.synchronizedList(new ArrayList<>());
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private ResourceGroupExecutor executor;

    private final class Agent implements ResourceAgent {
        private final String token;

        Agent(String token) {
            this.token = token;
        }

        @Override
        public AgentResult start() {
            journal.add(Thread.currentThread().getName() + " start " + token);
            running.put(token, true);
            return AgentResult.ok("started");
        }

        @Override
        public AgentResult stop() {
            journal.add(Thread.currentThread().getName() + " stop " + token);
            running.put(token, false);
            return AgentResult.ok("stopped");
        }

        @Override
        public AgentResult status() {
            journal.add(Thread.currentThread().getName() + " status " + token);
            return running.getOrDefault(token, false) ? AgentResult.running("running") : AgentResult.stopped("stopped");
        }
    }

    private final ResourceGroupExecutor.MonitorTimer timer = new ResourceGroupExecutor.MonitorTimer() {
        @Override
        public void schedule(long delayNanos, Runnable task) {
            armed.add(new Object[] {now + delayNanos, task});
        }

        @Override
        public void close() {
            armed.clear();
        }
    };

    private static ResourceGroupDecl group(NodeName n, String... tokens) {
        return new ResourceGroupDecl(n, java.util.Arrays.stream(tokens)
                .map(t -> HaresourcesParser.resource(t).orElseThrow()).toList(), 1);
    }

    private ResourceGroupExecutor executor(List<ResourceGroupDecl> groups, MonitorSettings defaults) {
        return executor(groups, spec -> MonitorSettings.forResource(spec, defaults));
    }

    private ResourceGroupExecutor executor(List<ResourceGroupDecl> groups,
            java.util.function.Function<org.jheartbeat.core.config.ResourceSpec, java.util.Optional<MonitorSettings>> watch) {
        Map<String, Agent> agents = new HashMap<>();
        executor = new ResourceGroupExecutor(groups, spec -> agents.computeIfAbsent(spec.token(), Agent::new),
                ResourceGroupExecutor.Lifecycle.NONE, watch, timer, () -> now,
                new ResourceGroupRunner(spec -> agents.computeIfAbsent(spec.token(), Agent::new), d -> { }, 1,
                        Duration.ZERO));
        executor.onGroupFailure((g, d) -> failures.add(g + " " + d));
        return executor;
    }

    /** Advances the fake clock and runs the timer tasks now due; each enqueues a check, waited for. */
    private void advance(long nanos) throws Exception {
        now += nanos;
        List<Object[]> due = new ArrayList<>();
        synchronized (armed) {
            armed.removeIf(a -> (long) a[0] <= now && due.add(a));
        }
        for (Object[] a : due) {
            ((Runnable) a[1]).run();
        }
        // a check enqueued above runs on the group's queue: a no-op operation behind it waits for it
        executor.drain(0).get(HANG_GUARD_S, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() {
        if (executor != null) {
            executor.close();
        }
    }

    @Test
    void aRunningGroupIsCheckedOnItsQueueRestartedInPlaceThenHandedToTheMachine() throws Exception {
        NodeName n1 = NodeName.of("node1");
        executor(List.of(group(n1, "198.18.0.100", "lsb:web::op_monitor_interval=2s::op_restart_limit=1")),
                MonitorSettings.DEFAULT);
        assertThat(armed).as("nothing armed before the group runs").isEmpty();
        executor.start(0, GroupOpReason.LOCAL_START).get(HANG_GUARD_S, TimeUnit.SECONDS);
        assertThat(armed).hasSize(1);
        assertThat((long) armed.get(0)[0]).isEqualTo(now + 2 * S);
        journal.clear();
        advance(2 * S);
        assertThat(journal).as("the check runs on the group's own worker")
                .contains("hb-group-0 status lsb:web::op_monitor_interval=2s::op_restart_limit=1");
        assertThat(failures).isEmpty();

        running.put("lsb:web::op_monitor_interval=2s::op_restart_limit=1", false); // killed
        journal.clear();
        advance(2 * S);
        assertThat(journal).contains("hb-group-0 start lsb:web::op_monitor_interval=2s::op_restart_limit=1");
        assertThat(journal).noneMatch(l -> l.contains("198.18.0.100") && l.contains(" stop "));
        assertThat(executor.monitorStatus().get("198.18.0.100")).singleElement()
                .satisfies(w -> assertThat(w.failCount()).isEqualTo(1));
        assertThat(failures).isEmpty();

        running.put("lsb:web::op_monitor_interval=2s::op_restart_limit=1", false); // killed again: limit used up
        advance(2 * S);
        assertThat(failures).singleElement().asString().startsWith("198.18.0.100 resource lsb:web::op_monitor_interval=2s"
                + "::op_restart_limit=1 not running (stopped), fail count 2, restart limit 1 within 10 min used up");
        int armedAfterGiveUp = armed.size();
        advance(60 * S);
        assertThat(failures).as("told once; no more checks").hasSize(1);
        assertThat(armed).hasSize(armedAfterGiveUp);

        executor.clearFailures("198.18.0.100");
        assertThat(executor.monitorStatus().get("198.18.0.100").get(0).failCount()).isZero();
        assertThat(executor.monitorStatus().get("198.18.0.100").get(0).lastFailure()).isEmpty();
    }

    @Test
    void aStartedGroupIsReportedServedOnceAtItsFirstPassingCheckButNotWhenAdopted() throws Exception {
        List<String> served = Collections.synchronizedList(new ArrayList<>());
        executor(List.of(group(NodeName.of("node1"), "198.18.0.100", "lsb:web::op_monitor_interval=2s")),
                MonitorSettings.DEFAULT);
        executor.onGroupFailure(new ResourceGroupExecutor.FailureListener() {
            @Override
            public void groupFailed(String groupKey, String detail) {
                failures.add(groupKey + " " + detail);
            }

            @Override
            public void groupServed(String groupKey, String detail, long afterMillis) {
                served.add(Thread.currentThread().getName() + " " + groupKey + " " + detail + " " + afterMillis);
            }
        });
        executor.start(0, GroupOpReason.TAKEOVER).get(HANG_GUARD_S, TimeUnit.SECONDS);
        assertThat(served).isEmpty();
        advance(2 * S);
        assertThat(served).containsExactly("hb-group-0 198.18.0.100 lsb:web::op_monitor_interval=2s running 2000");
        advance(2 * S);
        advance(2 * S);
        assertThat(served).as("once per start").hasSize(1);
        executor.watch(0, false); // maintenance on, then off: adopted running, watched, not served
        executor.watch(0, true);
        executor.drain(0).get(HANG_GUARD_S, TimeUnit.SECONDS);
        journal.clear();
        advance(2 * S);
        advance(2 * S);
        assertThat(served).hasSize(1);
        assertThat(journal).as("still watched after the adoption").contains("hb-group-0 status lsb:web::op_monitor_interval=2s");
        executor.stop(0, GroupOpReason.STANDBY_RELEASE).get(HANG_GUARD_S, TimeUnit.SECONDS);
        executor.start(0, GroupOpReason.LOCAL_START).get(HANG_GUARD_S, TimeUnit.SECONDS);
        advance(2 * S);
        assertThat(served).hasSize(2);
        assertThat(failures).isEmpty();
    }

    @Test
    void aCheckArmedBeforeAStopDoesNothingAndAStoppedGroupIsNotChecked() throws Exception {
        executor(List.of(group(NodeName.of("node1"), "lsb:web")), MonitorSettings.DEFAULT);
        executor.start(0, GroupOpReason.LOCAL_START).get(HANG_GUARD_S, TimeUnit.SECONDS);
        Runnable stale = (Runnable) armed.get(0)[1];
        executor.stop(0, GroupOpReason.STANDBY_RELEASE).get(HANG_GUARD_S, TimeUnit.SECONDS);
        journal.clear();
        stale.run();
        executor.drain(0).get(HANG_GUARD_S, TimeUnit.SECONDS);
        assertThat(journal).as("the stale check asked nothing").isEmpty();
        assertThat(failures).isEmpty();
    }

    @Test
    void heartbeatClassGroupsAreNotWatchedAndTheDefaultIntervalIsTenSeconds() throws Exception {
        executor(List.of(group(NodeName.of("node1"), "198.18.0.100", "labweb"), group(NodeName.of("node2"), "lsb:db")),
                MonitorSettings.DEFAULT);
        assertThat(executor.monitorStatus()).containsOnlyKeys("lsb:db");
        GroupMonitor.ResourceWatch w = executor.monitorStatus().get("lsb:db").get(0);
        assertThat(w.settings().interval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(w.settings().maxRestarts()).isEqualTo(3);
        executor.start(0, GroupOpReason.LOCAL_START).get(HANG_GUARD_S, TimeUnit.SECONDS);
        assertThat(armed).isEmpty();
        executor.start(1, GroupOpReason.TAKEOVER).get(HANG_GUARD_S, TimeUnit.SECONDS);
        assertThat((long) armed.get(0)[0]).isEqualTo(now + 10 * S);
    }

    @Test
    void aReloadThatMovesTheGroupKeepsItsWatchAndTheFailureIsReportedByKey() throws Exception {
        NodeName n1 = NodeName.of("node1");
        ResourceGroupDecl web = group(n1, "lsb:web::op_restart_limit=0");
        executor(List.of(web), MonitorSettings.DEFAULT);
        executor.start(0, GroupOpReason.LOCAL_START).get(HANG_GUARD_S, TimeUnit.SECONDS);
        executor.regroup(List.of(group(n1, "lsb:db"), web)); // a reload put a new group before it
        assertThat(executor.monitorStatus()).containsOnlyKeys("lsb:db", "lsb:web::op_restart_limit=0");
        running.put("lsb:web::op_restart_limit=0", false);
        now += 10 * S;
        List<Object[]> due = new ArrayList<>(armed);
        armed.clear();
        for (Object[] a : due) {
            ((Runnable) a[1]).run();
        }
        executor.drain(1).get(HANG_GUARD_S, TimeUnit.SECONDS);
        assertThat(failures).singleElement().asString().startsWith("lsb:web::op_restart_limit=0 resource lsb:web");
    }
}
