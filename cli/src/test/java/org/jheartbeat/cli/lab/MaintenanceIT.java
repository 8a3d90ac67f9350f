package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
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
 * Maintenance mode on two jheartbeat daemons in the lab, with node1 running two groups
 * (VIP + labweb, VIP2 + labweb2):
 * <ol>
 *   <li>cluster-wide maintenance; node1's daemon is stopped and started again: the VIP and labweb
 *       stay on node1 the whole time (the client is served throughout, sampled every 100 ms), node2
 *       takes nothing; after {@code maintenance off} nothing moves;</li>
 *   <li>labweb stopped by hand during maintenance is not restarted; after {@code off} it is started
 *       on node1, where it belongs;</li>
 *   <li>bad input: an unknown group (with the nearest key), and {@code off} while a group runs on both
 *       nodes (labweb2 started by hand on node2 too), refused with what to fix;</li>
 *   <li>group maintenance of VIP2's group: node1 is powered off, the VIP group fails over to node2,
 *       VIP2's group does not.</li>
 * </ol>
 */
@Tag("root")
class MaintenanceIT {
    static final String VIP = FailoverIT.VIP;
    static final String VIP2 = "198.18.0.101";
    static final String GROUP2 = VIP2 + "/24/eth0";

    @Test
    void maintenanceLeavesGroupsAloneAndOffAdoptsWhatRuns() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        long t0 = System.nanoTime();
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_INITDEAD", "6",
                "LAB_AUTO_FAILBACK", "on", "LAB_HARESOURCES",
                "node1 " + VIP + "/24/eth0 labweb\nnode1 " + GROUP2 + " labweb2\n"))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            awaitServing(lab, "node1");
            await().atMost(Figures.HANG).untilAsserted(() ->
                    assertThat(OperatorCommandsIT.json(lab, "node2")).contains("\"takeover_state\":\"stable\""));

            // 1. cluster-wide maintenance across a restart of node1's daemon
            Lab.Result on = hb(lab, "node1", "maintenance", "on");
            assertThat(on.code()).as(on.output()).isZero();
            assertThat(on.output()).contains("Maintenance: cluster-wide");
            await().atMost(Figures.HANG).untilAsserted(() ->
                    assertThat(OperatorCommandsIT.json(lab, "node2")).contains("\"setting\":\"cluster-wide\""));
            assertThat(hb(lab, "node2", "maintenance", "status").output()).startsWith("on (cluster-wide)");
            assertThat(Files.readString(lab.runDir().resolve("node1/state/maintenance"))).contains("cluster=on");

            List<String> problems = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger samples = new AtomicInteger();
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (sampling.get()) {
                    try {
                        String who = lab.http();
                        samples.incrementAndGet();
                        if (!who.equals("node1")) {
                            problems.add(System.currentTimeMillis() + " client got '" + who + "'");
                        }
                        if (lab.holds("node2", VIP)) {
                            problems.add(System.currentTimeMillis() + " node2 holds " + VIP);
                        }
                        Thread.sleep(100);
                    } catch (Exception e) {
                        problems.add("sampling failed: " + e);
                    }
                }
            }, "maintenance-sampler");
            sampler.start();
            try {
                awaitSamples(samples, 3);
                assertThat(lab.lab("stop", "node1").code()).isZero();
                // node2 heard node1 leave: what it would have done is logged, nothing is done
                await().atMost(Figures.HANG).untilAsserted(() -> assertThat(lab.daemonLog("node2", 200))
                        .contains("would be taken over from node1"));
                assertThat(lab.lab("start", "node1").code()).isZero();
                await().atMost(Figures.HANG).untilAsserted(() -> assertThat(lab.daemonLog("node1", 300))
                        .contains("Maintenance start-up probe: running on node1"));
                await().atMost(Figures.HANG).untilAsserted(() ->
                        assertThat(OperatorCommandsIT.json(lab, "node1")).contains("\"takeover_state\":\"stable\""));
                int before = samples.get();
                Lab.Result off = hb(lab, "node1", "maintenance", "off");
                assertThat(off.code()).as(off.output()).isZero();
                assertThat(off.output()).contains("runs on node1, adopted").contains("Maintenance: off");
                awaitSamples(samples, before + 10); // nothing moves after off
            } finally {
                sampling.set(false);
                sampler.join(10_000);
            }
            Figures.print("maintenance_http_samples", samples.get(), "samples",
                    "client requests (every 100 ms) while node1's daemon restarted in maintenance");
            assertThat(problems).as("samples where the client was not served by node1 or node2 held the VIP\n%s\n%s",
                    lab.daemonLog("node1", 60), lab.daemonLog("node2", 60)).isEmpty();
            assertThat(lab.daemonLog("node1", 400)).doesNotContain("Stopping resource group")
                    .doesNotContain("found running at start-up (resources");
            assertThat(lab.holds("node1", VIP2)).isTrue();
            assertThat(lab.holds("node2", VIP2)).isFalse();

            // 2. a service stopped by hand in maintenance is not restarted; after off it is started
            assertThat(hb(lab, "node1", "maintenance", "on").code()).isZero();
            assertThat(lab.lab("exec", "node1", lab.configDir("node1").resolve("resource.d/labweb").toString(), "stop")
                    .code()).isZero();
            assertThat(lab.http()).isEmpty();
            Thread.sleep(2000); // a restart would come from monitoring or the machine; neither acts in maintenance
            assertThat(lab.http()).as("labweb stopped by hand stays stopped").isEmpty();
            assertThat(OperatorCommandsIT.json(lab, "node1")).contains("\"maintenance\":{\"setting\":\"cluster-wide\"");

            // 3. bad input: an unknown group, and off while labweb2 also runs on node2 (by hand)
            Lab.Result unknown = hb(lab, "node1", "maintenance", "on", "--group", "198.18.0.1O1/24/eth0");
            assertThat(unknown.code()).as("an unknown group is a usage error").isEqualTo(64);
            assertThat(unknown.output()).contains("no resource group 198.18.0.1O1/24/eth0")
                    .contains("did you mean " + GROUP2);
            assertThat(lab.lab("exec", "node2", lab.configDir("node2").resolve("resource.d/labweb2").toString(),
                    "start").code()).isZero();
            Lab.Result twice = hb(lab, "node1", "maintenance", "off");
            assertThat(twice.code()).as(twice.output()).isEqualTo(75);
            assertThat(twice.output()).contains(GROUP2).contains("run on both node1 and node2")
                    .contains("nothing changed");
            assertThat(lab.lab("exec", "node2", lab.configDir("node2").resolve("resource.d/labweb2").toString(),
                    "stop").code()).isZero();
            Lab.Result off2 = hb(lab, "node1", "maintenance", "off");
            assertThat(off2.code()).as(off2.output()).isZero();
            assertThat(off2.output()).contains(VIP + "/24/eth0: runs partly on node1, the rest started");
            awaitServing(lab, "node1");
            assertThat(lab.holds("node2", VIP)).isFalse();

            // 4. group maintenance: VIP2's group stays put when node1 loses power, the VIP group fails over
            Lab.Result g = hb(lab, "node2", "maintenance", "on", "--group", GROUP2);
            assertThat(g.code()).as(g.output()).isZero();
            await().atMost(Figures.HANG).untilAsserted(() ->
                    assertThat(OperatorCommandsIT.json(lab, "node1")).contains("\"setting\":\"group " + GROUP2 + "\""));
            assertThat(lab.lab("poweroff", "node1").code()).isZero();
            awaitServing(lab, "node2");
            await().atMost(Figures.HANG).untilAsserted(() -> assertThat(lab.daemonLog("node2", 200))
                    .contains("resource group " + GROUP2 + " would be taken over from node1"));
            assertThat(lab.holds("node2", VIP2)).as("the group in maintenance is not taken over").isFalse();
            assertThat(lab.lab("http2").code()).isNotZero();
        } finally {
            Figures.print("maintenance_it_ms", (System.nanoTime() - t0) / 1_000_000, "ms", "MaintenanceIT wall time");
        }
    }

    /** {@code hb ARGS} inside NODE against that node's daemon. */
    private static Lab.Result hb(Lab lab, String node, String... args) throws Exception {
        return OperatorCommandsIT.wrapper(lab, node, "hb", args);
    }

    private static void awaitServing(Lab lab, String node) {
        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertThat(lab.http()).isEqualTo(node));
    }

    private static void awaitSamples(AtomicInteger samples, int atLeast) {
        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(50)).until(() -> samples.get() >= atLeast);
    }
}
