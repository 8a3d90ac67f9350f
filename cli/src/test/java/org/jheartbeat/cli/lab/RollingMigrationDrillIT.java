package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rolling migration of docs/migration.md, done on a running pair: two real Heartbeat 3.0.6 nodes (Debian's
 * package) serve two groups ({@code node1 IPaddr2::198.18.0.100/24/eth0 labweb}, {@code node2
 * IPaddr2::198.18.0.101/24/eth0 labweb2}, each service answering its node's host name); node by node, the
 * node's groups go to its peer ({@code hb_standby all}), Heartbeat stops, jheartbeat starts on the same
 * /etc/ha.d ({@code lab.sh swap}: the machine keeps its files), joins the real Heartbeat peer and takes its
 * group back (auto_failback on: by itself; off: {@code hb takeover local}); then the way back the same way
 * ({@code hb standby all}, stop, Heartbeat on the same files, {@code hb_takeover local} when auto_failback is
 * off).
 *
 * <p>Throughout, a client ({@link ClientSampler}, in the lab's client namespace) asks both services every 100 ms
 * and records each answer's body (the answering node), the client's neighbour entry for the VIP (the MAC the
 * request went to) and the time; a watcher in the test reads both nodes' local addresses every 100 ms from
 * their {@code /proc/PID/net/fib_trie}.
 *
 * <p>"A group answered by two nodes" is defined four ways, each asserted never to happen:
 * <ol>
 *   <li><b>Mixed sample</b>: an answer whose body names one node while the client's neighbour entry, read right
 *       after it, is the other node's MAC. The entry only changes on an ARP announcement, and only a node
 *       that holds the VIP announces it, so two nodes held it within one request.</li>
 *   <li><b>Interleaving</b>: answers by node A, then B, then A again for one service, the two A answers less
 *       than one hand-over apart (Heartbeat's own standby time, measured in this run). Two real hand-overs
 *       cannot both finish within one; in this procedure a daemon stops and another starts between them.</li>
 *   <li><b>Two MACs</b>: one ARP probe from the client for a VIP answered by both nodes' MACs (about one
 *       probe a second per VIP, as the fault matrix's {@link VipWatch}); a node's kernel answers for every
 *       address it holds.</li>
 *   <li><b>Double hold</b> (the servers' side): node1, node2 and node1 again all list the VIP as a local
 *       address in three reads one after the other (a single move between reads cannot make all three true,
 *       {@link Lab#heldByBoth}).</li>
 * </ol>
 * A group's outage is the longest time between two answered samples with only failed ones between them
 * ({@link MigrationSamples#outageMs}). It is printed per step next to the standby time of that step (the
 * time from the standby command to the first answer from the peer; Heartbeat's in the forward steps) and
 * only bounded by a generous multiple of Heartbeat's standby, to catch hangs: the machine is shared.
 * A drill ({@code -Djhb.drills=true}): about a minute per auto_failback setting here.
 */
@Tag("root")
class RollingMigrationDrillIT {
    static final String G1 = FailoverIT.VIP + ":8080";
    static final String G2 = HeartbeatInteropIT.VIP2 + ":8081";
    /** A hang bound, not a figure: no outage may exceed this many Heartbeat standby times (nor 30 s). */
    static final long GENEROUS = 10;

    /** One step's hand-overs, for the table. */
    record Phase(String step, String what, String moved, long from, long to, String standbyTo) {
        /** From the standby command to the first answer from {@code standbyTo}, in ms; -1 for a phase without standby. */
        long standbyMs(MigrationSamples s) {
            return standbyTo == null ? -1 : (s.firstAnswer(moved, standbyTo, from).orElse(to) - from) / 1_000_000;
        }
    }

    @ParameterizedTest(name = "auto_failback {0}")
    @ValueSource(strings = {"on", "off"})
    void aHeartbeatPairBecomesAJheartbeatPairAndBackOneNodeAtATimeWithNoGroupOnTwoNodes(String autoFailback)
            throws Exception {
        assumeTrue(Boolean.getBoolean("jhb.drills"), "a drill: run with -Djhb.drills=true (docs/testing.md)");
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of("/usr/libexec/heartbeat/heartbeat")), "real heartbeat not installed");
        try (Lab lab = new Lab(Map.of("LAB_NODE1", "heartbeat", "LAB_NODE2", "heartbeat",
                "LAB_GROUPS", "active-active", "LAB_AUTO_FAILBACK", autoFailback))) {
            Path samplesFile = lab.runDir().resolve("client-samples.txt");
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            HeartbeatInteropIT.awaitServing(lab, "node1", "node2");
            Process sampler = startSampler(lab, samplesFile);
            VipWatcher watcher = new VipWatcher(lab, List.of(FailoverIT.VIP, HeartbeatInteropIT.VIP2));
            List<Phase> phases = new ArrayList<>();
            try {
                watcher.start();
                MigrationSteps m = new MigrationSteps(lab, samplesFile, autoFailback.equals("on"));
                lab.waitUntil(() -> sampler.isAlive() && MigrationSamples.read(samplesFile).size() > 0, MigrationSteps.HANG_MS,
                        "the client sampler's first samples (" + lab.runDir().resolve("client-sampler.out") + ")");
                m.awaitAnswers("node1", "node2", System.nanoTime());
                m.moveNode("node1", "heartbeat", "jheartbeat", phases);
                m.moveNode("node2", "heartbeat", "jheartbeat", phases);
                assertKinds(lab, "jheartbeat");
                for (String n : List.of("node1", "node2")) {
                    assertThat(lab.lab("status", n).output()).as(n + " runs jheartbeat").startsWith("Node " + n + " (generation");
                }
                m.moveNode("node1", "jheartbeat", "heartbeat", phases);
                m.moveNode("node2", "jheartbeat", "heartbeat", phases);
                assertKinds(lab, "heartbeat");
                for (String n : List.of("node1", "node2")) {
                    assertThat(lab.lab("clstatus", n, "hbstatus").code()).as(n + " runs Heartbeat").isZero();
                }
            } finally {
                watcher.stop();
                sampler.destroy();
                sampler.waitFor();
            }
            MigrationSamples s = MigrationSamples.read(samplesFile);
            long heartbeatStandby = phases.stream().filter(p -> p.what().startsWith("hb_standby"))
                    .mapToLong(p -> p.standbyMs(s)).max().orElseThrow();
            long shortestHeartbeatStandby = phases.stream().filter(p -> p.what().startsWith("hb_standby"))
                    .mapToLong(p -> p.standbyMs(s)).min().orElseThrow();
            System.out.printf("%nRolling migration, auto_failback %s, %d client samples (100 ms per service), %s%n",
                    autoFailback, s.size(), samplesFile);
            System.out.printf("%-26s %-34s %-6s %10s %12s %10s%n", "step", "phase", "group", "outage ms",
                    "other grp ms", "standby ms");
            List<String> tooLong = new ArrayList<>();
            for (Phase p : phases) {
                String other = p.moved().equals(G1) ? G2 : G1;
                long outage = s.outageMs(p.moved(), p.from(), p.to());
                long otherOutage = s.outageMs(other, p.from(), p.to());
                System.out.printf("%-26s %-34s %-6s %10d %12d %10s%n", p.step(), p.what(), p.moved().equals(G1) ? "VIP1" : "VIP2",
                        outage, otherOutage, p.standbyMs(s) < 0 ? "" : Long.toString(p.standbyMs(s)));
                long bound = Math.max(GENEROUS * heartbeatStandby, 30_000);
                if (outage > bound || otherOutage > bound) {
                    tooLong.add(p + ": outage " + outage + " ms, other group " + otherOutage + " ms, bound " + bound + " ms");
                }
            }
            System.out.printf("Heartbeat's own standby (hb_standby all to the peer's first answer) in this run: %d and %d ms%n",
                    shortestHeartbeatStandby, heartbeatStandby);
            System.out.printf("ARP probes from the client (both VIPs): %d; address reads every 100 ms on both nodes%n",
                    watcher.arpProbes());
            assertThat(s.mixed()).as("samples answered by one node through the other's MAC").isEmpty();
            List<String> inter = new ArrayList<>(s.interleavings(G1, shortestHeartbeatStandby * 1_000_000));
            inter.addAll(s.interleavings(G2, shortestHeartbeatStandby * 1_000_000));
            assertThat(inter).as("answers from both nodes within one hand-over").isEmpty();
            assertThat(watcher.doubles()).as("a VIP held by both nodes at once, or answering ARP from both").isEmpty();
            assertThat(tooLong).as("outages beyond the hang bound").isEmpty();
            for (String n : List.of("node1", "node2")) {
                assertThat(HeartbeatInteropIT.haLog(lab, n)).as(n + "'s ha-log").doesNotContain("attempted replay attack");
            }
        }
    }

    private static void assertKinds(Lab lab, String kind) throws Exception {
        for (String n : List.of("node1", "node2")) {
            assertThat(Files.readString(lab.runDir().resolve(n).resolve("kind")).trim()).as(n).isEqualTo(kind);
        }
    }

    /** The client sampler in the client's namespace, on this JVM's class path. */
    private static Process startSampler(Lab lab, Path out) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder("ip", "netns", "exec", lab.clientNamespace(), java, "-Xmx32m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), ClientSampler.class.getName(),
                out.toString(), G1, G2).redirectErrorStream(true)
                .redirectOutput(lab.runDir().resolve("client-sampler.out").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        return p;
    }
}
