package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.jheartbeat.cli.CommandLines;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The export proven on the real thing: a real Corosync 3 + Pacemaker 2 cluster (Debian 12 packages corosync and
 * pacemaker, pulled in by pacemaker-cli-utils) in the two lab nodes, started from the files
 * {@code hb export pacemaker} wrote for the lab's active/active config (node1: VIP 198.18.0.100 + the
 * {@code labweb} resource.d script, node2: 198.18.0.101 + {@code labweb2}, both through the exported
 * hb-script wrapper), runs each group on its node and moves node1's VIP and HTTP service to node2
 * when node1 is powered off, node2's group staying where it is. Each node runs
 * corosync and pacemakerd in its own network, UTS and mount namespace ({@code lab/pcmk-node.sh}:
 * private tmpfs for /etc/corosync, /var/lib/pacemaker, /run, /dev/shm, ...; no systemd needed).
 * A drill ({@code -Djhb.drills=true}): about 40 s, not in CI. The move time is printed, not asserted.
 */
@Tag("root")
class PacemakerClusterDrillIT {
    private static final String VIP = "198.18.0.100";
    private static final String VIP2 = "198.18.0.101";

    @Test
    void exportedClusterRunsTheGroupsAndMovesTheVipWhenNode1LosesPower() throws Exception {
        assumeTrue(Boolean.getBoolean("jhb.drills"), "a drill: run with -Djhb.drills=true (README: longer drills)");
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/pacemakerd")) && Files.isExecutable(Path.of("/usr/sbin/corosync")),
                "corosync and pacemaker are not installed (scripts/setup.sh: pacemaker-cli-utils)");
        try (Lab lab = new Lab(Map.of("LAB_GROUPS", "active-active"))) {
            Path out = lab.runDir().resolve("pcmk-export");
            StringWriter o = new StringWriter();
            StringWriter e = new StringWriter();
            CommandLine cl = CommandLines.newCommandLine();
            cl.setOut(new PrintWriter(o, true));
            cl.setErr(new PrintWriter(e, true));
            int code = cl.execute("export", "pacemaker", "--config-dir", lab.configDir("node1").toString(),
                    "--out", out.toString(), "--node-address", "node1=198.18.1.1,198.18.0.1",
                    "--node-address", "node2=198.18.1.2,198.18.0.2");
            assertThat(code).as("export: %s%n%s", o, e).isZero();
            Path script = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize()
                    .resolve("lab/pcmk-node.sh");
            for (String n : List.of("1", "2")) {
                String holder = Files.readString(lab.runDir().resolve("node" + n).resolve("holder.pid")).strip();
                Lab.Result r = lab.run(List.of("nsenter", "-t", holder, "-n", "-u", "-m", "--", "setsid",
                        script.toString(), n, lab.runDir().toString(), out.toString()), 60);
                assertThat(r.code()).as("pcmk-node.sh %s: %s", n, r.output()).isZero();
            }
            long t0 = System.nanoTime();
            Awaitility.await("groups started by Pacemaker, each on its node").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS)
                    .until(() -> lab.holds("node1", VIP) && lab.http().equals("node1") && lab.holds("node2", VIP2));
            System.out.printf("Pacemaker started the exported groups (node1, node2) after %d ms%n",
                    (System.nanoTime() - t0) / 1_000_000);
            System.out.println(crmMon(lab, "node1"));
            lab.lab("poweroff", "node1");
            long t1 = System.nanoTime();
            Awaitility.await("VIP and labweb on node2").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS)
                    .until(() -> lab.holds("node2", VIP) && lab.http().equals("node2"));
            assertThat(lab.holds("node2", VIP2)).as("node2's own group stays").isTrue();
            System.out.printf("VIP %s served by node2 %d ms after node1 lost power (ha.cf deadtime 3 s)%n", VIP,
                    (System.nanoTime() - t1) / 1_000_000);
            String mon = crmMon(lab, "node2");
            System.out.println(mon);
            assertThat(mon).contains("OFFLINE: [ node1 ]");
            for (String rsc : List.of("ip-198.18.0.100", "labweb", "ip-198.18.0.101", "labweb2")) {
                assertThat(mon).as(rsc).containsPattern(java.util.regex.Pattern.quote(rsc) + "\\s+\\([^)]*\\):\\s+Started node2");
            }
        }
    }

    private static String crmMon(Lab lab, String node) throws Exception {
        String holder = Files.readString(lab.runDir().resolve(node).resolve("holder.pid")).strip();
        return lab.run(List.of("nsenter", "-t", holder, "-n", "-u", "-m", "--", "crm_mon", "-1"), 30).output();
    }
}
