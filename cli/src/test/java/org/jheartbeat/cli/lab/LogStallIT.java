package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Logging never blocks the loop (a stalled log must not stop the beats). node1's ha.cf {@code logfile} is a FIFO that this
 * test holds open for reading but never reads, filled to the brim before the window starts; its
 * {@code debugfile} sits on a 64 KiB tmpfs (mounted in node1's own mount namespace) that is full. For
 * 30 s node1 is made to log (a cut of eth0: {@code Link node2:eth0 dead.}, later {@code up.}); node2
 * must log no late heartbeat and no death, and node1 must answer {@code hb status} throughout. The
 * full disk is reported once on node1's stderr, and once more when it is writable again. Finally node1
 * stops on SIGTERM with its log file still stuck, and says {@code Heartbeat shutdown complete.} on
 * stderr.
 */
@Tag("root")
class LogStallIT {
    private static final long WINDOW_MS = 22_000;

    @Test
    void beatsGoOutWhileTheLogFileIsAPipeNobodyReadsAndTheDebugFileSitsOnAFullDisk() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        // many beats (250 ms) against generous limits: synchronous logging stalls the loop for good, so
        // only a busy machine could come near a 5 s gap
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "250ms", "LAB_WARNTIME", "5", "LAB_DEADTIME", "10",
                "LAB_INITDEAD", "20"))) {
            Path node1 = lab.runDir().resolve("node1");
            Path fifo = node1.resolve("ha-log.fifo");
            Path disk = node1.resolve("fulldisk");
            Files.createDirectories(disk);
            assertThat(lab.run(List.of("mkfifo", fifo.toString()), 10).code()).isZero();
            // a small tmpfs in node1's own mount namespace (the host never sees it), filled up
            Lab.Result mount = lab.lab("exec", "node1", "sh", "-c", "mount -t tmpfs -o size=64k jhb-full " + disk
                    + " && { head -c 1048576 /dev/zero > " + disk + "/fill 2>/dev/null; df -k " + disk + "; }");
            assertThat(mount.code()).as("tmpfs in node1: %s", mount.output()).isZero();
            System.out.println("node1's debugfile disk: " + mount.output().trim());
            Path haCf = lab.configDir("node1").resolve("ha.cf");
            List<String> cf = new ArrayList<>();
            for (String line : Files.readAllLines(haCf)) {
                cf.add(line.startsWith("logfile ") ? "logfile " + fifo : line);
            }
            cf.add("debugfile " + disk.resolve("ha-debug"));
            Files.write(haCf, cf);

            // the reader that never reads: opened read-write, so opening it never waits for a peer
            try (RandomAccessFile reader = new RandomAccessFile(fifo.toFile(), "rw")) {
                assertThat(lab.lab("start", "node1").code()).isZero();
                assertThat(lab.lab("start", "node2").code()).isZero();
                assertThat(waitForStatus(lab, "node2", "node1        active", 60_000))
                        .as("node2 sees node1 active\n%s", lab.daemonLog("node2", 30)).isTrue();
                // fill the pipe: a writer larger than the pipe blocks once it is full; timeout ends it
                Lab.Result fill = lab.run(List.of("timeout", "-s", "KILL", "3", "sh", "-c",
                        "head -c 4194304 /dev/zero > " + fifo), 30);
                assertThat(fill.code()).as("the filler blocked on the full pipe: %s", fill.output()).isEqualTo(137);

                long t0 = System.nanoTime();
                assertThat(lab.lab("linkdown", "node1", "eth0").code()).isZero();
                boolean freed = false;
                boolean linkUp = false;
                int answers = 0;
                long slowestStatusMs = 0;
                String lastStatus = "";
                while (elapsedMs(t0) < WINDOW_MS) {
                    long s0 = System.nanoTime();
                    Lab.Result st = lab.lab("status", "node1");
                    long took = elapsedMs(s0);
                    slowestStatusMs = Math.max(slowestStatusMs, took);
                    assertThat(st.code()).as("hb status on node1 at %d ms: %s\n%s", elapsedMs(t0), st.output(),
                            lab.daemonLog("node1", 30)).isZero();
                    assertThat(st.output()).contains("node2");
                    lastStatus = st.output();
                    answers++;
                    if (!freed && elapsedMs(t0) > 12_000) {
                        assertThat(lab.lab("exec", "node1", "rm", disk.resolve("fill").toString()).code()).isZero();
                        freed = true;
                    }
                    if (freed && !linkUp && elapsedMs(t0) > 15_000) {
                        assertThat(lab.lab("linkup", "node1", "eth0").code()).isZero();
                        linkUp = true;
                    }
                    Thread.sleep(2_000);
                }
                System.out.println("node1 answered hb status " + answers + " times in " + WINDOW_MS
                        + " ms; slowest answer " + slowestStatusMs + " ms");
                assertThat(answers).isGreaterThanOrEqualTo(3);
                assertThat(lastStatus).contains("Log lines dropped:");
                assertThat(linkUp).isTrue();
                Thread.sleep(2_000); // let "Link node2:eth0 up." and the recovery report through

                String node2Log = Files.readString(lab.runDir().resolve("node2/ha-log"), StandardCharsets.UTF_8);
                assertThat(node2Log).as("node2's log").doesNotContain("Late heartbeat").doesNotContain("is dead");
                String node1Err = Files.readString(node1.resolve("daemon.out"), StandardCharsets.UTF_8);
                assertThat(node1Err).as("node1 logged while its log file was stuck")
                        .contains("Link node2:eth0 dead.").contains("Link node2:eth0 up.");
                String debugFile = disk.resolve("ha-debug").toString();
                assertThat(count(node1Err, "cannot write log file " + debugFile)).as("disk-full reports\n%s", node1Err)
                        .isEqualTo(1);
                assertThat(count(node1Err, "log file " + debugFile + " is writable again")).as("recovery reports")
                        .isEqualTo(1);
                Lab.Result debug = lab.lab("exec", "node1", "cat", debugFile);
                assertThat(debug.output()).as("node1's debugfile after the disk had room again")
                        .contains("Link node2:eth0 up.");

                long s0 = System.nanoTime();
                Lab.Result stop = lab.lab("stop", "node1");
                System.out.println("node1 stopped in " + elapsedMs(s0) + " ms with its log file stuck");
                assertThat(stop.output()).as("stop").doesNotContain("SIGKILL");
                assertThat(Files.readString(node1.resolve("daemon.out"), StandardCharsets.UTF_8))
                        .contains("Heartbeat shutdown complete.");
            }
        }
    }

    private static boolean waitForStatus(Lab lab, String node, String text, long timeoutMs) throws Exception {
        long t0 = System.nanoTime();
        while (elapsedMs(t0) < timeoutMs) {
            if (lab.lab("status", node).output().contains(text)) {
                return true;
            }
            Thread.sleep(500);
        }
        return false;
    }

    private static long elapsedMs(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
