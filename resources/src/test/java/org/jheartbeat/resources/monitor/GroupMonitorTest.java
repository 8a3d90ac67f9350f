package org.jheartbeat.resources.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.fakes.FakeAgents;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.junit.jupiter.api.Test;

/**
 * The monitor of one group on a fake monotonic clock (no sleeping): when each resource is checked,
 * restart in place of the failed resource and those to its right (right to left, then left to right),
 * give-up once the restarts are used up or a restart fails, fail counts for {@code hb status}, cleanup.
 */
class GroupMonitorTest {
    static final long S = 1_000_000_000L;
    static final MonitorSettings EVERY_2S_1_RESTART =
            new MonitorSettings(Duration.ofSeconds(2), Duration.ofSeconds(20), 1, Duration.ofMinutes(10));

    long now = 100 * S;
    final FakeAgents agents = new FakeAgents();
    final ResourceGroupRunner runner = new ResourceGroupRunner(agents, d -> { }, 2, Duration.ofSeconds(1));

    static ResourceGroupDecl group(String... tokens) {
        return new ResourceGroupDecl(NodeName.of("node1"),
                java.util.Arrays.stream(tokens).map(t -> HaresourcesParser.resource(t).orElseThrow()).toList(), 1);
    }

    GroupMonitor monitor(ResourceGroupDecl g) {
        return new GroupMonitor(g, agents, runner, spec -> MonitorSettings.forResource(spec, EVERY_2S_1_RESTART),
                () -> now);
    }

    void runAll(ResourceGroupDecl g) {
        for (ResourceSpec spec : g.resources()) {
            agents.agent(spec.token()).running(true);
        }
    }

    @Test
    void onlyLsbOcfAndSystemdResourcesAreWatchedAndIntervalZeroTurnsItOff() {
        ResourceGroupDecl g = group("198.18.0.100", "lsb:lighttpd", "labweb", "ocf:heartbeat:Dummy::op_monitor_interval=off",
                "systemd:x::op_monitor_interval=5s");
        GroupMonitor m = monitor(g);
        assertThat(m.failures()).extracting(GroupMonitor.ResourceWatch::resource)
                .containsExactly("lsb:lighttpd", "systemd:x::op_monitor_interval=5s");
        assertThat(m.failures().get(1).settings().interval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(m.nextDueNanos()).as("not started: nothing due").isEqualTo(Long.MAX_VALUE);
        m.startedAt(now);
        assertThat(m.nextDueNanos()).isEqualTo(now + 2 * S);
        assertThat(monitor(group("198.18.0.100", "labweb")).watchesAnything()).isFalse();
    }

    /** Heartbeat never watched its scripts: only when the token asks, or the node watches every script. */
    @Test
    void aHeartbeatClassResourceIsWatchedOnlyWhenAsked() {
        var none = org.jheartbeat.core.config.OperationTimeouts.NONE;
        var node = none.with("op_monitor_interval", "30s");
        assertThat(MonitorSettings.forResource(HaresourcesParser.resource("labweb").orElseThrow(), node)).isEmpty();
        assertThat(MonitorSettings.forResource(HaresourcesParser.resource("labweb::8080::op_monitor_interval=5s")
                .orElseThrow(), node)).hasValueSatisfying(m -> assertThat(m.interval()).isEqualTo(Duration.ofSeconds(5)));
        assertThat(MonitorSettings.forResource(HaresourcesParser.resource("labweb").orElseThrow(), node, true))
                .hasValueSatisfying(m -> assertThat(m.interval()).isEqualTo(Duration.ofSeconds(30)));
        assertThat(MonitorSettings.forResource(HaresourcesParser.resource("198.18.0.100").orElseThrow(), none, true))
                .hasValueSatisfying(m -> assertThat(m.interval()).isEqualTo(Duration.ofSeconds(10)));
        assertThat(MonitorSettings.forResource(HaresourcesParser.resource("labweb::op_monitor_interval=0").orElseThrow(),
                node, true)).isEmpty();
        assertThat(MonitorSettings.forResource(HaresourcesParser.resource("labweb::op_restart_limit=1")
                .orElseThrow(), node)).isEmpty();
    }

    @Test
    void aResourcesOwnOptionsWinOverTheNodeDefaultsWhichWinOverTheBuiltInOnes() {
        var node = org.jheartbeat.core.config.OperationTimeouts.NONE.with("op_monitor_interval", "5s")
                .with("op_restart_limit", "1");
        MonitorSettings s = MonitorSettings.forResource(HaresourcesParser.resource("lsb:a::op_restart_limit=2")
                .orElseThrow(), node).orElseThrow();
        assertThat(s).isEqualTo(new MonitorSettings(Duration.ofSeconds(5), Duration.ofSeconds(20), 2, Duration.ofMinutes(10)));
        var off = org.jheartbeat.core.config.OperationTimeouts.NONE.with("op_monitor_interval", "off");
        assertThat(MonitorSettings.forResource(HaresourcesParser.resource("lsb:a").orElseThrow(), off)).isEmpty();
        assertThat(MonitorSettings.forResource(HaresourcesParser.resource("lsb:a::op_monitor_interval=1min").orElseThrow(),
                off)).hasValueSatisfying(m -> assertThat(m.interval()).isEqualTo(Duration.ofMinutes(1)));
    }

    @Test
    void eachResourceIsCheckedOnItsIntervalCountedFromTheEndOfItsLastCheck() {
        ResourceGroupDecl g = group("lsb:a", "lsb:b::op_monitor_interval=5s");
        runAll(g);
        GroupMonitor m = monitor(g);
        m.startedAt(now);
        assertThat(m.runDue().result()).isEqualTo(GroupMonitor.Result.ALL_WELL);
        assertThat(agents.calls("status")).as("nothing due yet").isEmpty();
        now += 2 * S;
        assertThat(m.runDue().result()).isEqualTo(GroupMonitor.Result.ALL_WELL);
        assertThat(agents.calls("status")).containsExactly("status lsb:a");
        assertThat(m.nextDueNanos()).isEqualTo(now + 2 * S);
        now += 3 * S;
        m.runDue();
        assertThat(agents.calls("status")).containsExactly("status lsb:a", "status lsb:a", "status lsb:b::op_monitor_interval=5s");
        m.stopped();
        now += 60 * S;
        assertThat(m.runDue().result()).isEqualTo(GroupMonitor.Result.ALL_WELL);
        assertThat(agents.calls("status")).as("stopped: no more checks").hasSize(3);
    }

    /** Served: the pass after a start in which every watched resource has answered "running"; once per start. */
    @Test
    void aStartedGroupIsServedOnceEveryWatchedResourcePassedItsFirstCheck() {
        ResourceGroupDecl g = group("198.18.0.100", "lsb:a", "lsb:b::op_monitor_interval=5s");
        runAll(g);
        GroupMonitor m = monitor(g);
        long started = now;
        m.startedAt(started);
        now += 2 * S;
        assertThat(m.runDue().servedAfterNanos()).as("lsb:b not checked yet").isEqualTo(-1);
        now += 3 * S;
        GroupMonitor.Check served = m.runDue();
        assertThat(served.result()).isEqualTo(GroupMonitor.Result.ALL_WELL);
        assertThat(served.servedAfterNanos()).isEqualTo(5 * S);
        assertThat(served.detail()).isEqualTo("lsb:a, lsb:b::op_monitor_interval=5s running");
        now += 5 * S;
        assertThat(m.runDue().servedAfterNanos()).as("once per start").isEqualTo(-1);

        // adopted running (maintenance ended): watched, never served
        m.stopped();
        m.adoptedAt(now);
        now += 10 * S;
        assertThat(m.runDue().servedAfterNanos()).isEqualTo(-1);
        assertThat(m.watching()).isTrue();

        // started again with lsb:a failing its first check: served only once the restarted lsb:a answers running
        m.stopped();
        m.startedAt(now);
        agents.agent("lsb:a").running(false);
        now += 5 * S;
        GroupMonitor.Check restarted = m.runDue();
        assertThat(restarted.result()).isEqualTo(GroupMonitor.Result.RESTARTED);
        assertThat(restarted.servedAfterNanos()).isEqualTo(-1);
        now += 5 * S; // the restart re-armed lsb:a (2 s) and lsb:b (5 s), to its right
        assertThat(m.runDue().servedAfterNanos()).isEqualTo(10 * S);
        // nothing watched: never served
        GroupMonitor none = monitor(group("198.18.0.100", "labweb"));
        none.startedAt(now);
        now += 60 * S;
        assertThat(none.runDue().servedAfterNanos()).isEqualTo(-1);
    }

    @Test
    void aFailureRestartsTheResourceAndThoseToItsRightThenTheNextOneMovesTheGroup() {
        ResourceGroupDecl g = group("198.18.0.100", "lsb:db", "lsb:web");
        runAll(g);
        GroupMonitor m = monitor(g);
        m.startedAt(now);
        agents.agent("lsb:db").running(false); // the service process was killed
        now += 2 * S;
        agents.journal().clear();
        GroupMonitor.Check c = m.runDue();
        assertThat(c.result()).isEqualTo(GroupMonitor.Result.RESTARTED);
        assertThat(c.detail()).startsWith("resource lsb:db ").contains("restarted in place (fail count 1");
        assertThat(agents.journal()).as("stop right to left from the failed one, then start left to right")
                .containsExactly("status lsb:db", "stop lsb:web", "stop lsb:db", "status lsb:db", "start lsb:db",
                        "status lsb:web", "start lsb:web");
        assertThat(agents.agent("198.18.0.100").isRunning()).as("the resource to its left is untouched").isTrue();
        assertThat(m.failures()).extracting(GroupMonitor.ResourceWatch::resource, GroupMonitor.ResourceWatch::failCount)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("lsb:db", 1), org.assertj.core.groups.Tuple.tuple("lsb:web", 0));
        assertThat(m.failures().get(0).lastFailure()).isEqualTo("not running (stopped)");
        assertThat(m.nextDueNanos()).isEqualTo(now + 2 * S);

        agents.agent("lsb:db").running(false);
        now += 2 * S;
        c = m.runDue();
        assertThat(c.result()).isEqualTo(GroupMonitor.Result.GIVE_UP);
        assertThat(c.detail()).isEqualTo("resource lsb:db not running (stopped), fail count 2, restart limit 1 within"
                + " 10 min used up");
        assertThat(m.watching()).isFalse();
        assertThat(m.nextDueNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(m.failures().get(0).failCount()).isEqualTo(2);
        assertThat(m.failures().get(0).lastFailureAge()).isZero();
        now += 5 * S;
        assertThat(m.failures().get(0).lastFailureAge()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void failuresOutsideTheWindowNoLongerCountAndCleanupForgetsThem() {
        ResourceGroupDecl g = group("lsb:db::op_restart_window=1min");
        runAll(g);
        GroupMonitor m = monitor(g);
        m.startedAt(now);
        agents.agent(g.key()).running(false);
        now += 2 * S;
        assertThat(m.runDue().result()).isEqualTo(GroupMonitor.Result.RESTARTED);
        now += 61 * S;
        agents.agent(g.key()).running(false);
        assertThat(m.runDue().result()).as("the first failure is older than the window").isEqualTo(GroupMonitor.Result.RESTARTED);
        assertThat(m.failures().get(0).failCount()).isEqualTo(1);
        m.clear();
        assertThat(m.failures().get(0).failCount()).isZero();
        assertThat(m.failures().get(0).lastFailure()).isEmpty();
    }

    @Test
    void aRestartWhoseStartFailsGivesUpAtOnce() {
        ResourceGroupDecl g = group("lsb:db::op_restart_limit=3");
        runAll(g);
        GroupMonitor m = monitor(g);
        m.startedAt(now);
        agents.agent(g.key()).running(false).failStarts(1);
        now += 2 * S;
        GroupMonitor.Check c = m.runDue();
        assertThat(c.result()).isEqualTo(GroupMonitor.Result.GIVE_UP);
        assertThat(c.detail()).startsWith("resource lsb:db::op_restart_limit=3 not running (stopped) and its restart failed:")
                .contains("scripted start failure");
        assertThat(m.watching()).isFalse();
    }

    @Test
    void aRestartLimitOfZeroMovesTheGroupOnTheFirstFailure() {
        ResourceGroupDecl g = group("lsb:db::op_restart_limit=0");
        runAll(g);
        GroupMonitor m = monitor(g);
        m.startedAt(now);
        agents.agent(g.key()).running(false);
        now += 2 * S;
        assertThat(m.runDue().result()).isEqualTo(GroupMonitor.Result.GIVE_UP);
        assertThat(agents.calls("stop")).as("the takeover machine stops the group, not the monitor").isEmpty();
    }

    @Test
    void aStatusThatTimesOutOrFailsCountsAsAFailure() {
        ResourceGroupDecl g = group("lsb:slow");
        ResourceAgent slow = new ResourceAgent() {
            @Override
            public AgentResult start() {
                return AgentResult.ok("started");
            }

            @Override
            public AgentResult stop() {
                return AgentResult.ok("stopped");
            }

            @Override
            public AgentResult status() {
                now += 20 * S; // the agent's own monitor timeout ran out
                return AgentResult.failed("status timed out after 20000 ms", AgentResult.NO_EXIT_CODE);
            }
        };
        GroupMonitor m = new GroupMonitor(g, spec -> slow, new ResourceGroupRunner(spec -> slow, d -> { }, 0,
                Duration.ZERO), spec -> Optional.of(EVERY_2S_1_RESTART), () -> now);
        m.startedAt(now);
        now += 2 * S;
        GroupMonitor.Check c = m.runDue();
        assertThat(c.result()).as("a restart whose start succeeds but which still fails is counted next time")
                .isEqualTo(GroupMonitor.Result.RESTARTED);
        assertThat(m.failures().get(0).lastFailure()).isEqualTo("failed (status timed out after 20000 ms)");
        assertThat(m.failures().get(0).failCount()).isEqualTo(1);
    }

    @Test
    void humanDurations() {
        assertThat(GroupMonitor.human(Duration.ofMinutes(10))).isEqualTo("10 min");
        assertThat(GroupMonitor.human(Duration.ofSeconds(10))).isEqualTo("10 s");
        assertThat(GroupMonitor.human(Duration.ofMillis(1500))).isEqualTo("1500 ms");
    }
}
