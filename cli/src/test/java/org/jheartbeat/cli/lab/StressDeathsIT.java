package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * False deaths under stress, the CI variant of {@code bench/stress-deaths.sh}: a settled pair of jheartbeat nodes,
 * started through the packaged launcher ({@code packaging/src/bin/hb}, its JVM flags), at keepalive
 * 100 ms / deadtime 500 ms, each with a simulated APC UPS as STONITH device, for 25 s under
 * {@code stress-ng --cpu NPROC --vm 1 --io 1}.
 *
 * <p>Zero deaths is not asserted: whether a beat is 500 ms late depends on the CI machine's load, which
 * this test does not control (on this project's 2-core machine the benchmark measured none, see
 * docs/benchmarks.md "False deaths under stress"). The late beats and deaths are printed as FIGURE lines.
 * What is asserted is what the daemon controls, safety: the VIP is never held by both nodes (probed
 * node1, node2, node1 twice a second), and a node that declared its peer dead started a group only after
 * the peer was reset (fenced), so a false death ends with one node serving, never two.
 */
@Tag("root")
class StressDeathsIT {
    private static final String VIP = "198.18.0.100";
    private static final long STRESS_S = 25;

    @Test
    void aSettledPairUnderStressNeverServesTheVipTwiceAndEveryDeathIsFencedFirst() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        assertThat(Files.isExecutable(Path.of("/usr/bin/stress-ng")))
                .as("stress-ng is missing: run scripts/setup.sh (apt-get install --no-install-recommends stress-ng)")
                .isTrue();
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "100ms", "LAB_DEADTIME", "500ms", "LAB_WARNTIME", "300ms",
                "LAB_INITDEAD", "10", "LAB_STONITH", "apcsmart",
                "HB_CMD", root.resolve("packaging/src/bin/hb").toString()))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            lab.waitUntil(() -> "node1".equals(lab.http())
                    && lab.lab("status", "node2").output().contains("node1        active"), Figures.HANG_MS,
                    "node1 serves the VIP and node2 sees it active");
            Path log1 = lab.runDir().resolve("node1/ha-log");
            Path log2 = lab.runDir().resolve("node2/ha-log");
            long off1 = Files.size(log1);
            long off2 = Files.size(log2);

            int cpus = Runtime.getRuntime().availableProcessors();
            Process stress = new ProcessBuilder("stress-ng", "--cpu", Integer.toString(cpus), "--vm", "1",
                    "--vm-bytes", "256m", "--io", "1", "--timeout", STRESS_S + "s")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            int probes = 0;
            List<String> both = new ArrayList<>();
            try {
                long t0 = System.nanoTime();
                while (stress.isAlive() && (System.nanoTime() - t0) / 1_000_000 < Figures.HANG_MS) {
                    if (lab.heldByBoth(VIP)) {
                        both.add(((System.nanoTime() - t0) / 1_000_000) + " ms");
                    }
                    probes++;
                    Thread.sleep(500);
                }
            } finally {
                stress.destroy();
                stress.waitFor();
            }
            String after1 = tail(log1, off1);
            String after2 = tail(log2, off2);
            int deaths = count(after1, "node node2: is dead") + count(after2, "node node1: is dead");
            Figures.print("stress_late_beats", count(after1, "Late heartbeat") + count(after2, "Late heartbeat"),
                    "lines", "'Late heartbeat' (warntime 300 ms) in both logs during " + STRESS_S + " s of stress-ng");
            Figures.print("stress_deaths", deaths, "lines", "'is dead' in both logs, deadtime 500 ms");
            Figures.print("stress_vip_probes", probes, "probes", "VIP holder probes, none may find it on both nodes");

            assertThat(both).as("the VIP on both nodes at once (ms into the stress)").isEmpty();
            for (String[] n : new String[][] {{"node1", after1, "node2"}, {"node2", after2, "node1"}}) {
                int dead = n[1].indexOf("node " + n[2] + ": is dead");
                if (dead < 0) {
                    continue;
                }
                // a false death: the peer must be fenced before this node starts anything of its own
                lab.waitUntil(() -> tail(lab.runDir().resolve(n[0] + "/ha-log"), n[0].equals("node1") ? off1 : off2)
                        .contains("node " + n[2] + " now reset"), Figures.HANG_MS, n[0] + " fences " + n[2]);
                String later = tail(lab.runDir().resolve(n[0] + "/ha-log"), n[0].equals("node1") ? off1 : off2);
                int reset = later.indexOf("node " + n[2] + " now reset");
                int start = later.indexOf("Starting resource group", dead);
                assertThat(start < 0 || start > reset).as("%s started a group before %s was reset:\n%s", n[0], n[2],
                        later).isTrue();
            }
            if (deaths == 0) {
                assertThat(lab.http()).as("no death: node1 still serves").isEqualTo("node1");
            } else {
                lab.waitUntil(() -> !lab.http().isEmpty(), Figures.HANG_MS, "one node serves after the fenced takeover");
                assertThat(lab.heldByBoth(VIP)).as("the VIP on both nodes after the takeover").isFalse();
            }
        }
    }

    private static String tail(Path file, long from) throws java.io.IOException {
        byte[] all = Files.readAllBytes(file);
        int start = (int) Math.min(from, all.length);
        return new String(all, start, all.length - start, StandardCharsets.UTF_8);
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
