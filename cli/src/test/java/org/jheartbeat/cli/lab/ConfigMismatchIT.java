package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A config mismatch between the nodes is reported on both within one keepalive of start.
 * Two jheartbeat daemons start with different haresources (node2's group lacks labweb): both log the
 * WARN after their {@code Comm_now_up()}, both {@code hb status} (text and JSON) show it, and
 * {@code hb config diff} names haresources on both. Then {@code hb config push} makes node2's file
 * node1's, node2 restarts, and the warning is gone on both. "Within one keepalive" is proved on a
 * fake clock by ConfigDigestScenarioTest; here, on a loaded machine, the delay is a printed figure.
 * The observed case of a node2 that claims node1's address in its own group
 * (second test).
 */
@Tag("root")
class ConfigMismatchIT {
    static final long KEEPALIVE_MS = 500;
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy/MM/dd_HH:mm:ss.SSS");

    @Test
    void mismatchIsReportedOnBothNodesAndGoesAwayOncePushed() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", KEEPALIVE_MS + "ms"))) {
            Files.writeString(lab.configDir("node2").resolve("haresources"), "node1 198.18.0.100/24/eth0\n");
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            long started = System.nanoTime();

            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                assertThat(lab.lab("status", "node1").output()).contains("Config: DIFFERS from node2 in haresources");
                assertThat(lab.lab("status", "node2").output()).contains("Config: DIFFERS from node1 in haresources");
            });
            Figures.print("config_mismatch_status_ms", (System.nanoTime() - started) / 1_000_000, "ms",
                    "both hb status report the mismatch after node2's daemon start returned (polling, each a JVM start)");
            for (String node : List.of("node1", "node2")) {
                String peer = node.equals("node1") ? "node2" : "node1";
                Path log = lab.runDir().resolve(node).resolve("ha-log");
                LocalDateTime commUp = logTime(log, "Comm_now_up()").orElseThrow(() ->
                        new AssertionError(node + ": no Comm_now_up() in " + log));
                LocalDateTime warned = logTime(log, "WARN: Configuration differs from " + peer + ": haresources.")
                        .orElseThrow(() -> new AssertionError(node + ": no mismatch WARN in " + log));
                long delayMs = Duration.between(commUp, warned).toMillis();
                Figures.print("config_mismatch_warn_ms_" + node, delayMs, "ms",
                        "mismatch WARN after Comm_now_up() in ha-log, keepalive " + KEEPALIVE_MS + " ms");
                // the peer's digest can arrive (and be logged) a few ms before this node logs Comm_now_up();
                // how soon after is the machine's load: only a hang is caught here
                assertThat(delayMs).as("%s reports the mismatch once comm is up", node)
                        .isBetween(-Figures.HANG_MS, Figures.HANG_MS);

                assertThat(OperatorCommandsIT.json(lab, node)).contains("\"config\":\"DIFFERS from " + peer + " in haresources\"");
                Lab.Result diff = ConfigPushIT.hb(lab, node, "config", "diff", "--state-dir", state(lab, node));
                assertThat(diff.code()).as(diff.output()).isEqualTo(1);
                assertThat(diff.output()).containsPattern("(?m)^  haresources +DIFFERS$")
                        .containsPattern("(?m)^  authkeys +same$");
            }

            // make them equal: push node1's haresources to node2, restart node2
            Lab.Result push = ConfigPushIT.hb(lab, "node1", "config", "push", "--config-dir",
                    lab.configDir("node1").toString(), "--to", "198.18.1.2", "--remote-dir", lab.configDir("node2").toString(),
                    "--ssh", lab.sshCommand(), "--file", "haresources", "--yes");
            assertThat(push.code()).as(push.output()).isZero();
            assertThat(push.output()).contains("+node1 198.18.0.100/24/eth0 labweb").contains("Wrote haresources on ");
            assertThat(Files.readAllBytes(lab.configDir("node2").resolve("haresources")))
                    .isEqualTo(Files.readAllBytes(lab.configDir("node1").resolve("haresources")));
            assertThat(lab.lab("stop", "node2").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                assertThat(lab.lab("status", "node1").output()).contains("Config: same as node2");
                assertThat(lab.lab("status", "node2").output()).contains("Config: same as node1");
            });
            assertThat(OperatorCommandsIT.json(lab, "node2")).contains("\"config\":\"same as node1\"");
            for (String node : List.of("node1", "node2")) {
                Lab.Result diff = ConfigPushIT.hb(lab, node, "config", "diff", "--state-dir", state(lab, node));
                assertThat(diff.code()).as(diff.output()).isZero();
                assertThat(diff.output()).containsPattern("(?m)^  haresources +same$");
            }
            assertThat(Files.readString(lab.runDir().resolve("node1/ha-log"))).contains("Configuration matches node2 now.");
            String node2Log = Files.readString(lab.runDir().resolve("node2/ha-log"));
            String sinceRestart = node2Log.substring(node2Log.lastIndexOf("Configuration validated."));
            assertThat(sinceRestart).doesNotContain("Configuration differs");
        }
    }

    /**
     * The observed case: node2's haresources puts node1's address in node2's own group
     * ({@code node2 198.18.0.100/24/eth0 labweb2}). Before, each node started its own definition: the
     * address ended up on both nodes and node2's own address (198.18.0.101) on neither. Now both groups
     * of node1 and node2's group are disputed: started by neither node, CRIT in both logs, shown in
     * both {@code hb status} (text and JSON). A sampler reads {@code ip addr} in both namespaces
     * throughout: 198.18.0.100 is never on both nodes. After {@code hb config push} and a restart of
     * node2, node1 holds 198.18.0.100 and node2 198.18.0.101.
     */
    @Test
    void aGroupNode2DefinesDifferentlyIsStartedByNeitherNodeUntilTheFilesAgree() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", KEEPALIVE_MS + "ms", "LAB_GROUPS", "active-active"))) {
            Files.writeString(lab.configDir("node2").resolve("haresources"), "node2 198.18.0.100/24/eth0 labweb2\n");
            AddressSampler sampler = new AddressSampler(lab);
            sampler.start();
            try {
                assertThat(lab.lab("start", "node1").code()).isZero();
                assertThat(lab.lab("start", "node2").code()).isZero();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
                    assertThat(lab.lab("status", "node1").output())
                            .contains("disputed: defined differently on node2 (node2 names node2 as its preferred node")
                            .contains("disputed: defined differently on node2 (resource labweb2 is in group"
                                    + " 198.18.0.100/24/eth0 on node2)");
                    assertThat(lab.lab("status", "node2").output())
                            .contains("disputed: defined differently on node1 (node1 names node1 as its preferred node");
                    assertThat(lab.holds("node1", "198.18.0.100") || lab.holds("node2", "198.18.0.100")).isFalse();
                });
                assertThat(OperatorCommandsIT.json(lab, "node1")).contains("\"disputed\":\"defined differently on node2 (");
                assertThat(OperatorCommandsIT.json(lab, "node2")).contains("\"disputed\":\"defined differently on node1 (");
                for (String node : List.of("node1", "node2")) {
                    String log = Files.readString(lab.runDir().resolve(node).resolve("ha-log"));
                    assertThat(log).contains("Resource group 198.18.0.100/24/eth0 is defined differently on node1 and"
                            + " node2 (").contains("started by neither node until haresources agree");
                }
                System.out.println("disputed phase: " + sampler.summary());
                // a while longer: still nowhere (nothing retries the disputed groups)
                Thread.sleep(5 * KEEPALIVE_MS);
                assertThat(lab.holds("node1", "198.18.0.100") || lab.holds("node2", "198.18.0.100")).isFalse();
                assertThat(lab.holds("node1", "198.18.0.101") || lab.holds("node2", "198.18.0.101")).isFalse();

                Lab.Result push = ConfigPushIT.hb(lab, "node1", "config", "push", "--config-dir",
                        lab.configDir("node1").toString(), "--to", "198.18.1.2", "--remote-dir",
                        lab.configDir("node2").toString(), "--ssh", lab.sshCommand(), "--file", "haresources", "--yes");
                assertThat(push.code()).as(push.output()).isZero();
                assertThat(lab.lab("stop", "node2").code()).isZero();
                assertThat(lab.lab("start", "node2").code()).isZero();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
                    assertThat(lab.holds("node1", "198.18.0.100")).isTrue();
                    assertThat(lab.holds("node2", "198.18.0.101")).isTrue();
                });
                for (String node : List.of("node1", "node2")) {
                    assertThat(lab.lab("status", node).output()).doesNotContain("disputed")
                            .contains("Config: same as " + (node.equals("node1") ? "node2" : "node1"));
                }
                assertThat(Files.readString(lab.runDir().resolve("node1/ha-log")))
                        .contains("Resource group 198.18.0.100/24/eth0 is defined the same on node1 and node2 now");
            } finally {
                sampler.stop();
            }
            System.out.println("whole run: " + sampler.summary());
            assertThat(sampler.samples()).as("address samples taken").isGreaterThan(10);
            assertThat(sampler.onBoth()).as("samples with 198.18.0.100 on both nodes: %s", sampler.onBothAt()).isZero();
        }
    }

    /** Reads {@code ip addr} in both node namespaces over and over (one sample = both nodes, back to back). */
    private static final class AddressSampler {
        private final Lab lab;
        private final Thread thread;
        private volatile boolean running = true;
        private final java.util.concurrent.atomic.AtomicLong samples = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.concurrent.atomic.AtomicLong onNode1 = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.concurrent.atomic.AtomicLong onNode2 = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.concurrent.atomic.AtomicLong onBoth = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.List<String> onBothAt = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

        AddressSampler(Lab lab) {
            this.lab = lab;
            this.thread = new Thread(this::loop, "address-sampler");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void loop() {
            while (running) {
                try {
                    boolean one = lab.holds("node1", "198.18.0.100");
                    boolean two = lab.holds("node2", "198.18.0.100");
                    samples.incrementAndGet();
                    if (one) {
                        onNode1.incrementAndGet();
                    }
                    if (two) {
                        onNode2.incrementAndGet();
                    }
                    if (one && two && lab.holds("node1", "198.18.0.100")) { // node1 again: no race (Lab.heldByBoth)
                        onBoth.incrementAndGet();
                        onBothAt.add(LocalDateTime.now().toString());
                    }
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                } catch (java.io.IOException e) {
                    // a namespace call that timed out: no sample
                }
            }
        }

        void stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join(15_000);
        }

        long samples() {
            return samples.get();
        }

        long onBoth() {
            return onBoth.get();
        }

        List<String> onBothAt() {
            return List.copyOf(onBothAt);
        }

        String summary() {
            return samples.get() + " samples of ip addr in both nodes; 198.18.0.100 on node1 in " + onNode1.get()
                    + ", on node2 in " + onNode2.get() + ", on both in " + onBoth.get();
        }
    }

    private static String state(Lab lab, String node) {
        return lab.runDir().resolve(node).resolve("state").toString();
    }

    /** The time of the first ha-log line containing {@code text}. */
    private static Optional<LocalDateTime> logTime(Path log, String text) throws java.io.IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains(text)).findFirst()
                .map(l -> LocalDateTime.parse(l.substring(0, l.indexOf(' ')), LOG_TIME));
    }
}
