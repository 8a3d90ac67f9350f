package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Reload in the lab: a group added to haresources on both nodes starts on its
 * preferred node after {@code hb reload} on both, without touching the running group (its script
 * resource is started once in the whole test, its address is never removed: a sampler reads
 * {@code ip addr} throughout); an invalid authkeys on reload (mode 644, then an unknown method, then
 * bad syntax through SIGHUP) exits 2 with the config check's {@code file:line} message, applies
 * nothing and keeps the node running on its old keys (the peer keeps accepting its beats well past
 * deadtime: no death); SIGHUP, sent by the daemon's pid, reloads as {@code hb reload} does (the group
 * is removed again and stops, a deadtime change applies, a udpport change is reported as needing a
 * restart). The log says what happened: the lines are asserted.
 */
@Tag("root")
class ReloadIT {
    static final String WEB = "198.18.0.100";
    static final String DB = "198.18.0.101";
    static final String WEB_GROUP = "node1 " + WEB + "/24/eth0 labcount::web";
    static final String DB_GROUP = "node2 " + DB + "/24/eth0 labcount::db";
    /** A script resource that counts its starts in the node's state dir ({@code labcount-NAME.starts}). */
    static final String LABCOUNT = """
            #!/bin/sh
            # labcount NAME start|stop|status: a resource that counts its starts (ReloadIT)
            d=${LABWEB_STATE_DIR:?}
            case "$2" in
            start) echo start >>"$d/labcount-$1.starts"; touch "$d/labcount-$1.on" ;;
            stop) rm -f "$d/labcount-$1.on" ;;
            status) if [ -e "$d/labcount-$1.on" ]; then echo running; else echo stopped; exit 3; fi ;;
            *) exit 1 ;;
            esac
            exit 0
            """;

    @Test
    void groupsKeysAndTimingsReloadLiveAndAnInvalidFileChangesNothing() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        long t0 = System.nanoTime();
        try (Lab lab = new Lab(Map.of("LAB_HARESOURCES", WEB_GROUP))) {
            for (String node : List.of("node1", "node2")) {
                Path script = lab.configDir(node).resolve("resource.d/labcount");
                Files.writeString(script, LABCOUNT);
                Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                assertThat(lab.holds("node1", WEB)).isTrue();
                assertThat(starts(lab, "node1", "web")).isEqualTo(1);
            });
            Sampler web = new Sampler(lab);
            web.start();
            try {
                // 1. a group preferred by node2 added on both nodes; node1 reloads first
                for (String node : List.of("node1", "node2")) {
                    Files.writeString(lab.configDir(node).resolve("haresources"), WEB_GROUP + "\n" + DB_GROUP + "\n");
                }
                Lab.Result r1 = reload(lab, "node1");
                assertThat(r1.code()).as(r1.output()).isZero();
                assertThat(r1.output()).contains("haresources: resource group " + DB
                        + "/24/eth0 added (preferred node node2) (applied)");
                Lab.Result r2 = reload(lab, "node2");
                assertThat(r2.code()).as(r2.output()).isZero();
                assertThat(r2.output()).contains("haresources: resource group " + DB
                        + "/24/eth0 added (preferred node node2) (applied)");
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    assertThat(lab.holds("node2", DB)).isTrue();
                    assertThat(starts(lab, "node2", "db")).isEqualTo(1);
                    assertThat(lab.lab("status", "node1").output()).contains("Config: same as node2");
                    assertThat(lab.lab("status", "node2").output()).contains("Config: same as node1");
                });
                assertThat(lab.holds("node1", DB)).isFalse();
                assertThat(starts(lab, "node1", "db")).isZero();
                assertThat(log(lab, "node1")).contains("Reload: haresources: resource group " + DB
                        + "/24/eth0 added (preferred node node2) (applied)");
                assertThat(log(lab, "node2")).contains("Reloading configuration from " + lab.configDir("node2")
                        + " (hb reload)").contains("Starting resource group " + DB + "/24/eth0 (local)")
                        .contains("Configuration matches node1 now.");

                // 2. invalid authkeys: nothing applied, the node runs on its old keys
                long badBefore = badPackets(lab.lab("status", "node2").output());
                Path authkeys = lab.configDir("node1").resolve("authkeys");
                String goodKeys = Files.readString(authkeys);
                Files.writeString(authkeys, "auth 1\n1 sha1 a-new-key-nobody-else-has\n");
                Files.setPosixFilePermissions(authkeys, PosixFilePermissions.fromString("rw-r--r--"));
                Lab.Result loose = reload(lab, "node1");
                assertThat(loose.code()).as(loose.output()).isEqualTo(2);
                assertThat(loose.output()).contains(authkeys + ":0: ").contains("nothing applied");
                Files.setPosixFilePermissions(authkeys, PosixFilePermissions.fromString("rw-------"));
                Files.writeString(authkeys, "auth 1\n1 sha256 a-new-key-nobody-else-has\n");
                Lab.Result unknown = reload(lab, "node1");
                assertThat(unknown.code()).as(unknown.output()).isEqualTo(2);
                assertThat(unknown.output()).contains(authkeys + ":2: ").contains("sha256");
                // the same through SIGHUP, with a line that is not 'N method [key]'
                Files.writeString(authkeys, "auth 1\n1\n");
                hup(lab, "node1");
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                        assertThat(log(lab, "node1").split("Received SIGHUP", -1)).hasSize(2));
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                        assertThat(log(lab, "node1").split("Reload failed: configuration errors in ", -1)).hasSize(4));
                long afterBadKeys = System.nanoTime();
                // well past deadtime (3 s): had the new key been used, node2 would have declared node1 dead
                Thread.sleep(6_000);
                Lab.Result status2 = lab.lab("status", "node2");
                assertThat(status2.output()).containsPattern("node1 +active");
                // and, whatever the machine's load did to the beats' timing: node2 dropped no packet of
                // node1's as badly signed (it would count every one signed with a key it does not know)
                assertThat(badPackets(status2.output())).isEqualTo(badBefore);
                assertThat(log(lab, "node2")).doesNotContain("node1: is dead").doesNotContain("Cluster node node1 returning");
                String log1 = log(lab, "node1");
                assertThat(log1).contains("ERROR: Reload: " + authkeys + ":0: ")
                        .contains("ERROR: Reload: " + authkeys + ":2: ")
                        .contains("(SIGHUP)")
                        .contains("nothing applied, the node runs on as before (authkeys included)")
                        .doesNotContain("Reload: authkeys:");
                Figures.print("reload_bad_keys_watch_ms", (System.nanoTime() - afterBadKeys) / 1_000_000, "ms",
                        "node2 watched node1 this long after the invalid authkeys, deadtime 3000 ms");
                Files.writeString(authkeys, goodKeys);

                // 3. SIGHUP on both: the group is removed again, deadtime and udpport change
                for (String node : List.of("node1", "node2")) {
                    Files.writeString(lab.configDir(node).resolve("haresources"), WEB_GROUP + "\n");
                    Path hacf = lab.configDir(node).resolve("ha.cf");
                    Files.writeString(hacf, Files.readString(hacf).replaceFirst("(?m)^deadtime .*$", "deadtime 4")
                            .replaceFirst("(?m)^udpport .*$", "udpport 695"));
                }
                hup(lab, "node2");
                hup(lab, "node1");
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    assertThat(lab.holds("node2", DB)).isFalse();
                    assertThat(log(lab, "node2")).contains("Resource group " + DB
                            + "/24/eth0 stopped; it is no longer in haresources.");
                    assertThat(log(lab, "node1")).contains("Reload: ha.cf: deadtime 3000 ms -> 4000 ms (applied)");
                });
                String log2 = log(lab, "node2");
                assertThat(log2).contains("Received SIGHUP: reloading the configuration.")
                        .contains("Reload: haresources: resource group " + DB + "/24/eth0 removed (applied)")
                        .contains("Stopping resource group " + DB + "/24/eth0 (removed from haresources by a reload)")
                        .contains("Reload: ha.cf: deadtime 3000 ms -> 4000 ms (applied)")
                        .contains("WARN: Reload: ha.cf: udpport 694 -> 695 (needs a restart; not applied)");
                // the files now differ from what runs only in what needs a restart: hb reload says so, exit 0
                Lab.Result again = reload(lab, "node1");
                assertThat(again.code()).as(again.output()).isZero();
                assertThat(again.output()).contains("ha.cf: udpport 694 -> 695 (needs a restart; not applied)\n");
                assertThat(again.output().lines()).allMatch(l -> l.endsWith("(needs a restart; not applied)"));
            } finally {
                web.stop();
            }
            // the running group was never touched: started once, its address never gone
            assertThat(starts(lab, "node1", "web")).isEqualTo(1);
            assertThat(log(lab, "node1")).doesNotContain("Stopping resource group " + WEB);
            System.out.println("web address: " + web.summary());
            assertThat(web.samples()).isGreaterThan(10);
            assertThat(web.missing()).as("samples without %s on node1", WEB).isZero();
            assertThat(lab.lab("status", "node2").output()).containsPattern("node1 +active");
        }
        Figures.print("reload_it_ms", (System.nanoTime() - t0) / 1_000_000, "ms", "ReloadIT wall time");
    }

    static Lab.Result reload(Lab lab, String node) throws Exception {
        return ConfigPushIT.hb(lab, node, "reload", "--state-dir", lab.runDir().resolve(node).resolve("state").toString());
    }

    /** Sends SIGHUP to the node's daemon by its pid (what the unit's ExecReload does). */
    static void hup(Lab lab, String node) throws Exception {
        String pid = Files.readString(lab.runDir().resolve(node).resolve("daemon.pid")).trim();
        assertThat(pid).matches("[0-9]+");
        Lab.Result r = lab.run(List.of("kill", "-HUP", pid), 10);
        assertThat(r.code()).as(r.output()).isZero();
    }

    /** The {@code Bad packets: N} count of an {@code hb status} text. */
    static long badPackets(String status) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^Bad packets: ([0-9]+)$").matcher(status);
        assertThat(m.find()).as(status).isTrue();
        return Long.parseLong(m.group(1));
    }

    static long starts(Lab lab, String node, String name) throws Exception {
        Path f = lab.runDir().resolve(node).resolve("state").resolve("labcount-" + name + ".starts");
        return Files.exists(f) ? Files.readAllLines(f).size() : 0;
    }

    static String log(Lab lab, String node) throws Exception {
        return Files.readString(lab.runDir().resolve(node).resolve("ha-log"));
    }

    /** Reads node1's {@code ip addr} every 100 ms: how often the web address was missing. */
    private static final class Sampler {
        private final Lab lab;
        private final Thread thread;
        private volatile boolean running = true;
        private final AtomicLong samples = new AtomicLong();
        private final AtomicLong missing = new AtomicLong();

        Sampler(Lab lab) {
            this.lab = lab;
            this.thread = new Thread(this::loop, "web-sampler");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void loop() {
            while (running) {
                try {
                    boolean held = lab.holds("node1", WEB);
                    samples.incrementAndGet();
                    if (!held) {
                        missing.incrementAndGet();
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

        long missing() {
            return missing.get();
        }

        String summary() {
            return samples.get() + " samples of ip addr on node1, " + missing.get() + " without " + WEB;
        }
    }
}
