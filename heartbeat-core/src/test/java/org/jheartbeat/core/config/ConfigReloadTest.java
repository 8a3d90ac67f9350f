package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ConfigReload.Change;
import org.jheartbeat.core.config.ConfigReload.Effect;
import org.junit.jupiter.api.Test;

/** The reload decision ({@code hb reload}, SIGHUP): running config + new config → what applies live, what needs a restart. */
class ConfigReloadTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");
    static final String TWO = """
            node1 198.18.0.100/24/eth0 labweb
            node2 198.18.0.101 labweb2
            """;

    static ClusterConfig config(String haresources) {
        return config(haresources, Timing.ofMillis(500, 2000, 3000, 10_000), 694,
                List.of(new MediumDecl.Ucast("eth1", "198.18.1.2", 694, 5)), "secret");
    }

    static ClusterConfig config(String haresources, Timing timing, int port, List<MediumDecl> media, String key) {
        var parsed = HaresourcesParser.parse(Path.of("haresources"), haresources, List.of(N1, N2));
        assertThat(parsed.hasErrors()).as("%s", parsed.diagnostics()).isFalse();
        return new ClusterConfig(Path.of("/etc/ha.d"), timing, port, List.of(N1, N2), media, FailbackPolicy.ON,
                LogSettings.none(), AuthKeys.single(1, AuthMethod.SHA1, key.getBytes()), parsed.groups(), List.of());
    }

    static List<String> lines(ConfigReload.Plan plan) {
        return plan.changes().stream().map(Change::describe).toList();
    }

    @Test
    void theSameFilesChangeNothing() {
        ConfigReload.Plan plan = ConfigReload.plan(config(TWO), config(TWO));
        assertThat(plan.changes()).isEmpty();
        assertThat(plan.applied().resourceGroups()).isEqualTo(config(TWO).resourceGroups());
        // a comment line above moves every group down: the running declarations are kept as they are
        ConfigReload.Plan shifted = ConfigReload.plan(config(TWO), config("# services\n" + TWO));
        assertThat(shifted.changes()).isEmpty();
        assertThat(shifted.applied().resourceGroups()).isEqualTo(config(TWO).resourceGroups());
    }

    @Test
    void groupsAreMatchedByKeySoMovedLinesAndCommentsChangeNothing() {
        String moved = "# web first\n\nnode2 198.18.0.101 labweb2\n\nnode1 198.18.0.100/24/eth0 labweb\n";
        ConfigReload.Plan plan = ConfigReload.plan(config(TWO), config(moved));
        assertThat(plan.changes()).isEmpty();
        assertThat(plan.groupsChange(config(TWO))).isFalse();
        // the applied list follows the new file's order
        assertThat(plan.applied().resourceGroups()).extracting(ResourceGroupDecl::key)
                .containsExactly("198.18.0.101", "198.18.0.100/24/eth0");
    }

    @Test
    void groupsAddedAndRemovedApplyLive() {
        String next = """
                node1 198.18.0.100/24/eth0 labweb
                node1 198.18.0.102 labdb
                """;
        ConfigReload.Plan plan = ConfigReload.plan(config(TWO), config(next));
        assertThat(lines(plan)).containsExactly(
                "haresources: resource group 198.18.0.102 added (preferred node node1) (applied)",
                "haresources: resource group 198.18.0.101 removed (applied)");
        assertThat(plan.needingRestart()).isEmpty();
        assertThat(plan.groupsChange(config(TWO))).isTrue();
        assertThat(plan.applied().resourceGroups()).extracting(ResourceGroupDecl::toString)
                .containsExactly("node1 198.18.0.100/24/eth0 labweb", "node1 198.18.0.102 labdb");
    }

    @Test
    void aGroupChangedUnderTheSameKeyNeedsARestartAndKeepsItsRunningDefinition() {
        String next = """
                node2 198.18.0.100/24/eth0 labweb
                node2 198.18.0.101 labweb2 labflaky
                """;
        ConfigReload.Plan plan = ConfigReload.plan(config(TWO), config(next));
        assertThat(plan.changes()).extracting(Change::effect).containsOnly(Effect.NEEDS_RESTART);
        assertThat(lines(plan)).hasSize(2).first().asString()
                .startsWith("haresources: resource group 198.18.0.100/24/eth0 changed from 'node1 198.18.0.100/24/eth0"
                        + " labweb' to 'node2 198.18.0.100/24/eth0 labweb'")
                .endsWith("(needs a restart; not applied)");
        assertThat(plan.applied().resourceGroups()).isEqualTo(config(TWO).resourceGroups());
        assertThat(plan.groupsChange(config(TWO))).isFalse();
    }

    @Test
    void timingsApplyLiveWithTheirEffectiveValues() {
        ClusterConfig next = config(TWO, Timing.ofMillis(1000, 5000, 10_000, 20_000), 694,
                List.of(new MediumDecl.Ucast("eth1", "198.18.1.2", 694, 5)), "secret");
        ConfigReload.Plan plan = ConfigReload.plan(config(TWO), next);
        assertThat(lines(plan)).containsExactly(
                "ha.cf: keepalive 500 ms -> 1000 ms (applied)",
                "ha.cf: deadtime 3000 ms -> 10000 ms (applied)",
                "ha.cf: warntime 2000 ms -> 5000 ms (applied)",
                "ha.cf: initdead 10000 ms -> 20000 ms (applied)");
        assertThat(plan.applied().timing()).isEqualTo(next.timing());
    }

    @Test
    void newKeysApplyLive() {
        ClusterConfig running = config(TWO);
        ClusterConfig next = config(TWO, running.timing(), 694, running.media(), "another secret");
        ConfigReload.Plan plan = ConfigReload.plan(running, next);
        assertThat(lines(plan)).containsExactly("authkeys: keys changed (signing with auth 1) (applied)");
        assertThat(plan.applied().authKeys()).isSameAs(next.authKeys());
    }

    @Test
    void aKeyRolloverWindowOpensAndClosesLive() {
        ClusterConfig running = config(TWO);
        java.time.Instant until = java.time.Instant.parse("2026-12-06T18:00:00Z");
        ClusterConfig open = running.withAuthKeys(running.authKeys().withRollover(Optional.of(until)));
        ConfigReload.Plan opening = ConfigReload.plan(running, open);
        assertThat(lines(opening)).containsExactly("jheartbeat.yaml: key roll-over: every key of authkeys accepted"
                + " until 2026-12-06T18:00:00Z (applied)");
        assertThat(opening.applied().authKeys().rolloverUntil()).contains(until);
        assertThat(lines(ConfigReload.plan(open, running))).containsExactly("jheartbeat.yaml: key roll-over closed:"
                + " only key 1 (auth 1) accepted (applied)");
    }

    @Test
    void portMediaNodesLoggingStonithAndFailbackNeedARestartAndAreNotApplied() {
        ClusterConfig running = config(TWO);
        List<MediumDecl> media = List.of(new MediumDecl.Ucast("eth1", "198.18.1.2", 695, 5),
                new MediumDecl.Serial("/dev/ttyS0", 19200, 6));
        ClusterConfig c = config(TWO, running.timing(), 695, media, "secret");
        ClusterConfig next = new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), List.of(N1, NodeName.of("node3")),
                c.media(), FailbackPolicy.OFF, new LogSettings(Optional.of(Path.of("/var/log/ha-log")), Optional.empty(),
                Optional.empty()), c.authKeys(), c.resourceGroups(), List.of(new StonithDecl(Optional.empty(), "null",
                List.of("node1", "node2"), Optional.empty(), 9)));
        ConfigReload.Plan plan = ConfigReload.plan(running, next);
        assertThat(lines(plan)).containsExactly(
                "ha.cf: udpport 694 -> 695 (needs a restart; not applied)",
                "ha.cf: nodes node1 node2 -> node1 node3 (needs a restart; not applied)",
                "ha.cf: media ucast eth1 198.18.1.2:694 -> ucast eth1 198.18.1.2:695, serial /dev/ttyS0 19200"
                        + " (needs a restart; not applied)",
                "ha.cf: logging (logfile, debugfile, logfacility) changed (needs a restart; not applied)",
                "ha.cf: STONITH lines changed (needs a restart; not applied)",
                "ha.cf: auto_failback on -> off (needs a restart; not applied)");
        assertThat(plan.needingRestart()).hasSize(6);
        ClusterConfig applied = plan.applied();
        assertThat(applied.udpPort()).isEqualTo(694);
        assertThat(applied.nodes()).isEqualTo(running.nodes());
        assertThat(applied.media()).isEqualTo(running.media());
        assertThat(applied.logging()).isEqualTo(running.logging());
        assertThat(applied.stonith()).isEmpty();
        assertThat(applied.autoFailback()).isEqualTo(FailbackPolicy.ON);
    }

    @Test
    void mediaAndStonithLinesThatOnlyMovedChangeNothing() {
        ClusterConfig running = config(TWO);
        ClusterConfig next = config(TWO, running.timing(), 694,
                List.of(new MediumDecl.Ucast("eth1", "198.18.1.2", 694, 17)), "secret");
        assertThat(ConfigReload.plan(running, next).changes()).isEmpty();
    }

    static ClusterConfig withPing(ClusterConfig c, PingSettings ping) {
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), c.resourceGroups(), c.stonith(), ping);
    }

    @Test
    void pingNodesNeedARestartKeepTheRunningOnesAndOnlyMovedLinesChangeNothing() {
        PingSettings ping = new PingSettings(List.of(new PingNodeDecl("198.18.0.254", List.of("198.18.0.254"), false, 9)),
                java.time.Duration.ofSeconds(4), true);
        ClusterConfig running = withPing(config(TWO), ping);
        ConfigReload.Plan same = ConfigReload.plan(running, withPing(config(TWO), new PingSettings(
                List.of(new PingNodeDecl("198.18.0.254", List.of("198.18.0.254"), false, 12)),
                java.time.Duration.ofSeconds(4), true)));
        assertThat(same.changes()).isEmpty();
        assertThat(same.applied().ping()).isEqualTo(ping);
        ConfigReload.Plan off = ConfigReload.plan(running, withPing(config(TWO), new PingSettings(ping.nodes(),
                ping.deadping(), false)));
        assertThat(lines(off)).containsExactly("ha.cf: ping nodes, deadping or ipfail changed (needs a restart; not applied)");
        assertThat(off.applied().ping()).isEqualTo(ping);
    }

    @Test
    void aWatchdogDeviceAddedOrRemovedNeedsARestartAndTheRunningOneIsKept() {
        ClusterConfig plain = config(TWO);
        ClusterConfig guarded = withWatchdog(plain, Optional.of(Path.of("/dev/watchdog")));
        ConfigReload.Plan added = ConfigReload.plan(plain, guarded);
        assertThat(lines(added)).containsExactly("ha.cf: watchdog none -> /dev/watchdog (needs a restart; not applied)");
        assertThat(added.applied().watchdog()).isEmpty();
        ConfigReload.Plan removed = ConfigReload.plan(guarded, plain);
        assertThat(lines(removed)).containsExactly("ha.cf: watchdog /dev/watchdog -> none (needs a restart; not applied)");
        assertThat(removed.applied().watchdog()).contains(Path.of("/dev/watchdog"));
        assertThat(ConfigReload.plan(guarded, withWatchdog(plain, Optional.of(Path.of("/dev/watchdog")))).changes())
                .isEmpty();
    }

    private static ClusterConfig withWatchdog(ClusterConfig c, Optional<Path> watchdog) {
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), c.resourceGroups(), c.stonith(), c.ping(), watchdog);
    }
}
