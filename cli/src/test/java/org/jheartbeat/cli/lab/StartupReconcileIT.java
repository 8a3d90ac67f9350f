package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Start-up after a crash, in the lab, with the real labweb/labweb2 scripts: a daemon killed with
 * SIGKILL and restarted within deadtime releases what it finds running before it beats, and the
 * groups end on exactly one node each, as both nodes' {@code hb status} say; a group whose resource
 * script is missing fails alone while the daemon starts and runs the other groups.
 */
@Tag("root")
class StartupReconcileIT {
    static final String VIP1 = FailoverIT.VIP;
    static final String VIP2 = HeartbeatInteropIT.VIP2;
    static final String GROUP1 = VIP1 + "/24/eth0";
    static final String GROUP2 = VIP2 + "/24/eth0";
    /** deadtime far above a daemon restart, so the restart happens "within deadtime" even on a busy machine. */
    static final Map<String, String> LONG_DEADTIME = Map.of("LAB_GROUPS", "active-active", "LAB_DEADTIME", "20",
            "LAB_WARNTIME", "10", "LAB_INITDEAD", "40", "LAB_AUTO_FAILBACK", "off");

    @Test
    void sigkilledDaemonRestartedWithinDeadtimeReleasesItsOwnGroupAndTakesItBack() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(LONG_DEADTIME)) {
            bootActiveActive(lab);
            try (VipSampler sampler = new VipSampler(lab)) {
                sigkillAndRestart(lab, "node1");
                settle(lab, "node1", "node2");
                assertThat(sampler.samples()).as("ip addr samples taken").isGreaterThan(20);
                assertThat(sampler.overlaps()).as("moments when both nodes held a VIP").isEmpty();
            }
            assertThat(HeartbeatInteropIT.haLog(lab, "node1"))
                    .contains("Resource group " + GROUP1 + " found running at start-up (resources: " + GROUP1
                            + ", labweb); releasing it before joining the cluster")
                    .contains("Resource group " + GROUP1 + " released at start-up");
        }
    }

    @Test
    void sigkilledDaemonRestartedWithinDeadtimeReleasesThePeersGroupItRanAfterATakeover() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(LONG_DEADTIME)) {
            bootActiveActive(lab);
            assertThat(OperatorCommandsIT.wrapper(lab, "node1", "hb_takeover", "all").code()).isZero();
            HeartbeatInteropIT.awaitServing(lab, "node1", "node1");
            try (VipSampler sampler = new VipSampler(lab)) {
                sigkillAndRestart(lab, "node1");
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    for (String node : List.of("node1", "node2")) {
                        String json = OperatorCommandsIT.json(lab, node);
                        assertThat(json).as("%s's view", node).contains("\"takeover_state\":\"stable\"")
                                .doesNotContain("\"running_on\":null");
                    }
                    HeartbeatInteropIT.assertRunningOnce(lab);
                });
                assertThat(sampler.samples()).as("ip addr samples taken").isGreaterThan(20);
                assertThat(sampler.overlaps()).as("moments when both nodes held a VIP").isEmpty();
            }
            assertThat(HeartbeatInteropIT.haLog(lab, "node1"))
                    .contains("Resource group " + GROUP2 + " found running at start-up (resources: " + GROUP2
                            + ", labweb2); releasing it before joining the cluster");
        }
    }

    @Test
    void aSecondDaemonStartedByMistakeOnTheSameNodeTouchesNothing() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(LONG_DEADTIME)) {
            bootActiveActive(lab);
            // another state directory, so the control socket does not say "already running": the media are
            // tried with the configuration (their ports are the first daemon's), and the start stops there, exit 2
            // with the ha.cf lines, before its start-up check releases anything
            Lab.Result second = OperatorCommandsIT.hbExactly(lab, "node1", "daemon", "--config-dir",
                    lab.configDir("node1").toString(), "--state-dir", lab.runDir().resolve("node1/state2").toString(),
                    "--node-name", "node1");
            assertThat(second.code()).as(second.output()).isEqualTo(2);
            assertThat(second.output()).contains(lab.configDir("node1").resolve("ha.cf") + ":")
                    .contains("cannot bind UDP 198.18.1.1:694 (Address already in use)").doesNotContain("releasing it");
            HeartbeatInteropIT.awaitServing(lab, "node1", "node2");
            HeartbeatInteropIT.assertRunningOnce(lab);
        }
    }

    @Test
    void missingResourceScriptFailsOnlyItsGroupTheDaemonStartsAndRunsTheOthers() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        String broken = "198.18.0.102/24/eth0";
        try (Lab lab = new Lab(Map.of("LAB_HARESOURCES", "node1 " + GROUP1 + " labweb\n"
                + "node1 " + broken + " labgone\n" + "node2 " + GROUP2 + " labweb2\n"))) {
            assertThat(lab.lab("start", "node1").code()).as(lab.daemonLog("node1", 30)).isZero();
            assertThat(lab.lab("start", "node2").code()).as(lab.daemonLog("node2", 30)).isZero();
            HeartbeatInteropIT.awaitServing(lab, "node1", "node2");
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(OperatorCommandsIT.json(lab, "node1"))
                            .contains("\"key\":\"" + broken + "\",\"preferred_node\":\"node1\",\"state_here\":\"failed\"")
                            .contains("\"key\":\"" + GROUP1 + "\",\"preferred_node\":\"node1\",\"state_here\":\"running\"")
                            .contains("\"takeover_state\":\"stable\""));
            assertThat(lab.holds("node1", "198.18.0.102") || lab.holds("node2", "198.18.0.102"))
                    .as("the broken group's address was rolled back").isFalse();
            HeartbeatInteropIT.assertRunningOnce(lab);
            assertThat(OperatorCommandsIT.json(lab, "node2")).as("node1 beats").contains("{\"name\":\"node1\",\"status\":\"active\"");

            String haLog = HeartbeatInteropIT.haLog(lab, "node1");
            assertThat(haLog).contains("Resource group " + broken + " cannot start on this node: Cannot locate"
                    + " resource script for labgone")
                    .contains("Giving up resources due to failure of labgone")
                    .contains("Resource group " + broken + " failed to start on node1");
            assertThat(haLog.lines().filter(l -> l.contains("cannot start on this node")))
                    .allMatch(l -> l.contains("CRIT"));

            Path cfg = lab.configDir("node1");
            Lab.Result check = hb(lab, "node1", "config", "check", "--config-dir", cfg.toString());
            assertThat(check.code()).as(check.output()).isEqualTo(2);
            assertThat(check.output()).contains(cfg.resolve("haresources") + ":2: Cannot locate resource script for"
                    + " labgone");
        }
    }

    private static void bootActiveActive(Lab lab) throws Exception {
        assertThat(lab.lab("start", "node1").code()).as(lab.daemonLog("node1", 30)).isZero();
        assertThat(lab.lab("start", "node2").code()).as(lab.daemonLog("node2", 30)).isZero();
        settle(lab, "node1", "node2");
    }

    /** Waits until VIP1 serves from {@code vip1Node}, VIP2 from {@code vip2Node}, both views agree and are stable. */
    private static void settle(Lab lab, String vip1Node, String vip2Node) throws Exception {
        HeartbeatInteropIT.awaitServing(lab, vip1Node, vip2Node);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            for (String node : List.of("node1", "node2")) {
                assertThat(OperatorCommandsIT.json(lab, node)).as("%s's view", node)
                        .contains("\"takeover_state\":\"stable\"")
                        .contains("\"key\":\"" + GROUP1 + "\",\"preferred_node\":\"node1\",\"state_here\":\""
                                + (node.equals(vip1Node) ? "running" : "stopped") + "\",\"running_on\":\"" + vip1Node + "\"")
                        .contains("\"key\":\"" + GROUP2 + "\",\"preferred_node\":\"node2\",\"state_here\":\""
                                + (node.equals(vip2Node) ? "running" : "stopped") + "\",\"running_on\":\"" + vip2Node + "\"");
            }
            HeartbeatInteropIT.assertRunningOnce(lab);
        });
    }

    /** SIGKILL of the daemon only (its resources stay up, unmanaged), then {@code lab.sh start} at once. */
    private static void sigkillAndRestart(Lab lab, String node) throws Exception {
        sigkill(lab, node);
        assertThat(lab.lab("start", node).code()).as(lab.daemonLog(node, 30)).isZero();
    }

    /** SIGKILL of {@code node}'s daemon only; returns once it is gone, its address ({@link #VIP1}) still up. */
    static void sigkill(Lab lab, String node) throws Exception {
        String pid = Files.readString(lab.runDir().resolve(node).resolve("daemon.pid")).trim();
        assertThat(pid).matches("[0-9]+");
        assertThat(lab.run(List.of("kill", "-KILL", pid), 10).code()).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(Long.parseLong(pid))
                .map(p -> !p.isAlive()).orElse(true));
        assertThat(lab.holds(node, VIP1)).as("the killed daemon's address stays up").isTrue();
    }

    /** {@code java -jar hb.jar ARGS} inside {@code node}. */
    static Lab.Result hb(Lab lab, String node, String... args) throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        List<String> argv = new ArrayList<>(List.of("exec", node, "java", "-jar",
                System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString())));
        argv.addAll(List.of(args));
        return lab.lab(argv.toArray(String[]::new));
    }

    /** Samples {@code ip addr} in both nodes for both VIPs until closed; records every double hold. */
    static final class VipSampler implements AutoCloseable {
        private final List<String> overlaps = Collections.synchronizedList(new ArrayList<>());
        private final AtomicInteger samples = new AtomicInteger();
        private final AtomicBoolean sampling = new AtomicBoolean(true);
        private final Thread thread;

        VipSampler(Lab lab) {
            thread = new Thread(() -> {
                while (sampling.get()) {
                    try {
                        for (String vip : List.of(VIP1, VIP2)) {
                            if (lab.heldByBoth(vip)) {
                                overlaps.add(System.currentTimeMillis() + " both hold " + vip);
                            }
                        }
                        samples.incrementAndGet();
                    } catch (Exception e) {
                        overlaps.add("sampling failed: " + e);
                    }
                }
            }, "vip-sampler");
            thread.start();
        }

        int samples() {
            return samples.get();
        }

        List<String> overlaps() {
            return List.copyOf(overlaps);
        }

        @Override
        public void close() throws InterruptedException {
            sampling.set(false);
            thread.join(10_000);
        }
    }
}
