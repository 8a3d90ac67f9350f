package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The resource agent classes, end to end on real programs: one haresources group of three agent
 * classes, {@code ocf:heartbeat:IPaddr2} and the built-in {@code Filesystem::DEVICE::DIR::FSTYPE} (run by
 * {@code ocf:heartbeat:Filesystem}) from Debian's resource-agents (an ext4 image on a loop device both nodes see, like a shared disk) and Debian's
 * lighttpd as {@code lsb:lighttpd} (its /etc/init.d script; systemd is not PID 1 here, and each
 * node has its own /run: LAB_PRIVATE_RUN=1), fails over when node1's daemon stops and comes back
 * when it starts again (auto_failback on). Each time the client gets an HTTP answer from lighttpd on the address,
 * the file system (with a file node1 wrote) is mounted on exactly the holding node, and the LSB
 * status is 0 there and 3 on the other. {@code hb resources describe} prints both OCF agents'
 * parameters. The host's own lighttpd is never started (checked at the end).
 */
@Tag("root")
class AgentClassesIT {
    static final String VIP = "198.18.0.100";
    static final String JAR = Path.of(System.getProperty("hb.jar", "target/hb.jar")).toAbsolutePath().toString();

    @Test
    void ocfAndLsbGroupFailsOverAndBack() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces, loop devices)");
        assumeTrue(Files.isExecutable(Path.of("/usr/lib/ocf/resource.d/heartbeat/Filesystem"))
                && Files.isExecutable(Path.of("/etc/init.d/lighttpd")), "scripts/setup.sh installs resource-agents and lighttpd");
        Path image = Files.createTempFile(Path.of("target").toAbsolutePath(), "agents-it-", ".img");
        String loop = null;
        try {
            assertThat(host(List.of("truncate", "-s", "32M", image.toString()))).isZero();
            assertThat(host(List.of("mkfs.ext4", "-q", "-F", "-L", "agentsit", image.toString()))).isZero();
            loop = hostOutput(List.of("losetup", "-f", "--show", image.toString())).trim();
            assertThat(loop).startsWith("/dev/loop");
            String group = "node1 ocf:heartbeat:IPaddr2::ip=" + VIP + "::cidr_netmask=24::nic=eth0"
                    // the built-in Filesystem (Heartbeat's positional form), run by ocf:heartbeat:Filesystem
                    + " Filesystem::" + loop + "::/srv/data::ext4"
                    + " lsb:lighttpd";
            try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_AUTO_FAILBACK", "on",
                    "LAB_PRIVATE_RUN", "1", "LAB_HARESOURCES", group))) {
                Lab.Result describe = lab.run(List.of("java", "-jar", JAR, "resources", "describe", "IPaddr2"), 60);
                assertThat(describe.code()).as(describe.output()).isZero();
                assertThat(describe.output()).contains("ocf:heartbeat:IPaddr2").containsPattern("\\nip +yes")
                        .containsPattern("\\ncidr_netmask +no");
                Lab.Result fs = lab.run(List.of("java", "-jar", JAR, "resources", "describe", "ocf:heartbeat:Filesystem"), 60);
                assertThat(fs.code()).as(fs.output()).isZero();
                assertThat(fs.output()).containsPattern("\\ndevice +yes").containsPattern("\\nfstype +yes")
                        .contains("start 60s, stop 60s");
                Lab.Result check = lab.run(List.of("java", "-jar", JAR, "resources", "check", "--config-dir",
                        lab.configDir("node1").toString()), 60);
                assertThat(check.code()).as(check.output()).isZero();

                assertThat(lab.lab("start", "node1").code()).isZero();
                assertThat(lab.lab("start", "node2").code()).isZero();
                long t0 = System.nanoTime();
                awaitServedBy(lab, "node1");
                Figures.print("agents_boot_ms", ms(t0), "ms", "node1 serves lighttpd on the VIP with its file system");
                // inside node1: the mount is in its own mount namespace
                assertThat(lab.lab("exec", "node1", "sh", "-c", "echo node1 >/srv/data/written-on-node1").code()).isZero();

                t0 = System.nanoTime();
                assertThat(lab.lab("stop", "node1").code()).isZero();
                awaitServedBy(lab, "node2");
                Figures.print("agents_failover_ms", ms(t0), "ms", "node2 serves after node1's daemon stopped");
                Lab.Result cat = lab.lab("exec", "node2", "cat", "/srv/data/written-on-node1");
                assertThat(cat.output()).as("node1's file on the disk node2 mounted").contains("node1");

                t0 = System.nanoTime();
                assertThat(lab.lab("start", "node1").code()).isZero();
                awaitServedBy(lab, "node1");
                Figures.print("agents_failback_ms", ms(t0), "ms", "node1 serves again after its daemon started");
                assertThat(lab.daemonLog("node1", 400) + lab.daemonLog("node2", 400)).doesNotContain("STOP failure");
            }
        } finally {
            if (loop != null) {
                host(List.of("losetup", "-d", loop));
            }
            Files.deleteIfExists(image);
        }
        // the lab ran lighttpd only inside the nodes: the host's service was never started
        assertThat(host(List.of("/etc/init.d/lighttpd", "status"))).as("host lighttpd status").isEqualTo(3);
    }

    /** Waits until the client's HTTP request to the VIP is answered, and checks who holds what. */
    private static void awaitServedBy(Lab lab, String node) throws Exception {
        String other = node.equals("node1") ? "node2" : "node1";
        lab.waitUntil(() -> lab.holds(node, VIP) && !lab.holds(other, VIP) && servedByLighttpd(lab), Figures.HANG_MS, VIP + " answering HTTP from " + node);
        assertThat(lab.lab("exec", node, "mountpoint", "-q", "/srv/data").code()).as("/srv/data mounted on " + node).isZero();
        assertThat(lab.lab("exec", other, "mountpoint", "-q", "/srv/data").code()).as("/srv/data not on " + other).isNotZero();
        assertThat(lab.lab("exec", node, "/etc/init.d/lighttpd", "status").code()).as("lsb status on " + node).isZero();
        assertThat(lab.lab("exec", other, "/etc/init.d/lighttpd", "status").code()).as("lsb status on " + other)
                .isEqualTo(3);
    }

    /**
     * Whether lighttpd answers on the VIP: its HTTP response header names it. The lab does not touch the
     * host's document root (/var/www/html, empty on Debian), so the answer is lighttpd's 403 for "/".
     */
    private static boolean servedByLighttpd(Lab lab) throws Exception {
        Lab.Result r = lab.lab("client", "curl", "-s", "-m", "2", "-o", "/dev/null", "-D", "-", "http://" + VIP + "/");
        return r.code() == 0 && r.output().startsWith("HTTP/1.1 ") && r.output().contains("Server: lighttpd/");
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static int host(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", argv).isTrue();
        return p.exitValue();
    }

    private static String hostOutput(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
