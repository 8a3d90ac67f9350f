package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.cli.lab.FaultMatrix.Scenario;

/**
 * Junk and replays on the heartbeat port, as fault-matrix drills ({@link FaultMatrix#all()}; run them
 * with {@code bench/fault-matrix.sh 'flood'} or {@code 'replay'}). The traffic comes from {@code
 * bench/hb-frames.py}, run inside the lab's namespaces, to lab addresses only.
 *
 * <ul>
 * <li><b>Junk flood</b>: for 2 x deadtime, one sender on the LAN (the client) and one stray process on
 * the crossover (in node2's namespace, beside node2's daemon) send node1 bad-signature frames as fast
 * as each can, against daemons started through the packaged launcher ({@code packaging/src/bin/hb}: its
 * 64 MB heap and flags). Expected: no death, no "Late heartbeat" on either node, both daemons alive, the
 * VIP stays on node1, the junk counted as bad packets ({@code hb status}). Figures: datagrams sent and
 * their rate, bad packets counted by node1, the kernel's receive-buffer drops in node1's namespace
 * ({@code /proc/net/snmp} RcvbufErrors), what neither counted, late beats, RSS before and after.</li>
 * <li><b>Replay</b> (deadtime 10 s, each node running a group): node2's frames to node1 are captured in
 * node1's namespace (a raw socket, before the daemon reads them) while node2 runs, up to and including
 * node2's last frame; node2 then freezes (SIGSTOP) or loses power, and the capture is replayed to node1
 * from node2's addresses, at its recorded pace, over and over for 2 x deadtime. After a power loss
 * node2's namespace gets its addresses back, with no process of node2's: something else now sends from
 * node2's addresses. Expected: node1 declares node2 dead and takes over node2's group (VIP2), and no
 * replayed frame brings node2 back. Figures: frames captured and replayed, when the replay began, node1's
 * stale-frame count (its debug lines "Dropped frame from before"; node1 gets a {@code debugfile}), its
 * bad-packet count, the time from node2's last real frame and from the fault to "is dead" and to node1
 * holding VIP2, against deadtime, and how often node2's links came up again after its death.</li>
 * </ul>
 * Times are figures; the waits are hang bounds ({@link Figures#HANG}). Neither drill is in the CI subset:
 * the flood lasts 20 s and whether a beat comes late under it depends on the machine's load, which the
 * test does not control; the replay takes about a minute with its lab.
 */
final class FloodDrills {
    /** The flood's deadtime, in s: 20 s of flood, more than the 15 s tried by hand. */
    static final int FLOOD_DEADTIME_S = 10;
    /** Bound on the datagrams each flood sender sends (far above what one process sends in 20 s here). */
    static final long FLOOD_MAX_DATAGRAMS = 20_000_000;
    /** How long node2's live frames are captured before the fault, in ms. */
    static final long CAPTURE_MS = 6000;
    /** The replay drills' deadtime, in s: the replay runs for most of it before node1's deadline. */
    static final int REPLAY_DEADTIME_S = 10;
    static final String VIP2 = FailureHandlingIT.VIP2;

    private static final Pattern SENT = Pattern.compile("sent=(\\d+) errors=(\\d+) seconds=([0-9.]+) rate=(\\d+)");
    private static final Pattern REPLAYED =
            Pattern.compile("replayed=(\\d+) rounds=(\\d+) errors=(\\d+) began_ms=(\\d+) ended_ms=(\\d+)");
    private static final Pattern STALE_TOTAL = Pattern.compile("Dropped frame from before .*\\[(\\d+) since start]");
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy/MM/dd_HH:mm:ss.SSS");

    private FloodDrills() {
    }

    /** The drills, each on its own lab. */
    static List<Scenario> all() {
        return List.of(junkFlood(), replay(false), replay(true));
    }

    static Path root() {
        return Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    }

    // ------------------------------------------------------------------ the junk flood

    static Scenario junkFlood() {
        int seconds = 2 * FLOOD_DEADTIME_S;
        Map<String, String> env = FaultMatrix.with(FaultMatrix.BASE, "LAB_DEADTIME", Integer.toString(FLOOD_DEADTIME_S),
                "LAB_WARNTIME", "2", "LAB_INITDEAD", "20",
                "HB_CMD", root().resolve("packaging/src/bin/hb").toString());
        return new Scenario("junk flood: bad-signature frames to node1's heartbeat port from the LAN client and a"
                + " stray process on the crossover, " + seconds + " s (2 x deadtime " + FLOOD_DEADTIME_S
                + " s), packaged launcher (64 MB heap)",
                "no death, no late heartbeat (warntime 2 s), both daemons alive, VIP stays on node1; the junk"
                        + " counted as bad packets", true, env, true, l -> { }, (lab, c) -> {
                    String load = loadAverage();
                    long[] rssBefore = {rssKb(lab, "node1"), rssKb(lab, "node2")};
                    long bad0 = badPackets(lab, "node1");
                    Map<String, Long> udp0 = udp(lab, "node1");
                    Py lan = Py.start(lab, lab.clientNamespace(), "flood", "198.18.0.1", "694",
                            Long.toString(FLOOD_MAX_DATAGRAMS), Integer.toString(seconds));
                    Py cross = Py.start(lab, lab.namespace("node2"), "flood", "198.18.1.1", "694",
                            Long.toString(FLOOD_MAX_DATAGRAMS), Integer.toString(seconds));
                    Matcher l;
                    Matcher x;
                    try {
                        FaultMatrix.staysOn(lab, "node1", seconds * 1000L);
                        l = Py.parse(SENT, lan.finish(seconds + 60), "LAN flood");
                        x = Py.parse(SENT, cross.finish(seconds + 60), "crossover flood");
                    } finally {
                        lan.destroy();
                        cross.destroy();
                    }
                    long sent = Long.parseLong(l.group(1)) + Long.parseLong(x.group(1));
                    long refused = Long.parseLong(l.group(2)) + Long.parseLong(x.group(2));
                    long bad = settledBadPackets(lab, "node1") - bad0;
                    Map<String, Long> udp1 = udp(lab, "node1");
                    long rcvbuf = udp1.getOrDefault("RcvbufErrors", 0L) - udp0.getOrDefault("RcvbufErrors", 0L);
                    long delivered = udp1.getOrDefault("InDatagrams", 0L) - udp0.getOrDefault("InDatagrams", 0L);
                    long[] rssAfter = {rssKb(lab, "node1"), rssKb(lab, "node2")};
                    String log1 = c.logSince("node1");
                    String log2 = c.logSince("node2");
                    int late = StonithIT.countOf(log1, "Late heartbeat") + StonithIT.countOf(log2, "Late heartbeat");
                    String status = lab.lab("status", "node1").output();
                    Figures.print("flood_sent", sent, "datagrams", "LAN " + l.group(1) + " at " + l.group(4)
                            + "/s, crossover " + x.group(1) + " at " + x.group(4) + "/s, " + refused + " refused");
                    Figures.print("flood_bad_counted", bad, "packets", "node1's hb status 'Bad packets' delta");
                    Figures.print("flood_rcvbuf_drops", rcvbuf, "datagrams", "node1 netns Udp RcvbufErrors delta");
                    Figures.print("flood_late_beats", late, "lines", "'Late heartbeat' in both ha-logs");
                    Figures.print("flood_rss_node1_before", rssBefore[0], "kB", "VmRSS");
                    Figures.print("flood_rss_node1_after", rssAfter[0], "kB", "VmRSS");
                    Figures.print("flood_rss_node2_before", rssBefore[1], "kB", "VmRSS");
                    Figures.print("flood_rss_node2_after", rssAfter[1], "kB", "VmRSS");

                    FaultMatrix.noDeath(c);
                    assertThat(late).as("'Late heartbeat' lines in the two ha-logs during the flood").isZero();
                    assertThat(FaultMatrix.daemonAlive(lab, "node1") && FaultMatrix.daemonAlive(lab, "node2"))
                            .as("both daemons alive").isTrue();
                    assertThat(bad).as("bad packets counted by node1").isPositive().isLessThanOrEqualTo(sent);
                    FaultMatrix.awaitServing(lab, "node1");
                    return String.format("sent %,d datagrams in %s s: LAN %,d (%,d/s), crossover %,d (%,d/s)%s;"
                                    + " node1 counted %,d bad packets, kernel dropped %,d (receive buffer full),"
                                    + " %,d delivered to sockets, %,d unaccounted; late heartbeats 0, deaths 0;"
                                    + " RSS node1 %,d -> %,d kB, node2 %,d -> %,d kB; %s; load average %s at the"
                                    + " start; ARP %s",
                            sent, l.group(3), Long.parseLong(l.group(1)), Long.parseLong(l.group(4)),
                            Long.parseLong(x.group(1)), Long.parseLong(x.group(4)),
                            refused == 0 ? "" : String.format(", %,d refused by the kernel", refused), bad, rcvbuf,
                            delivered, sent - bad - rcvbuf, rssBefore[0], rssAfter[0], rssBefore[1], rssAfter[1],
                            dropLines(status), load, c.watch.arpHistory());
                });
    }

    // ------------------------------------------------------------------ the replay

    /**
     * node2's live frames captured, node2 frozen ({@code powerLoss} false) or powered off, the capture
     * replayed to node1 from node2's addresses for 2 x deadtime. Deadtime 10 s: the replay runs for
     * about 9 s before node1's deadline and as long after it.
     */
    static Scenario replay(boolean powerLoss) {
        Map<String, String> env = FaultMatrix.with(FaultMatrix.BASE, "LAB_GROUPS", "active-active",
                "LAB_DEADTIME", Integer.toString(REPLAY_DEADTIME_S), "LAB_WARNTIME", "5", "LAB_INITDEAD", "20");
        long deadtimeMs = REPLAY_DEADTIME_S * 1000L;
        long replayS = 2L * REPLAY_DEADTIME_S;
        String fault = powerLoss ? "lost power (its addresses then back, no daemon)" : "froze (SIGSTOP)";
        return new Scenario("replayed frames: node2's captured frames replayed to node1 from node2's addresses after"
                + " node2 " + fault + ", deadtime " + REPLAY_DEADTIME_S + " s",
                "node1 declares node2 dead and takes over node2's group (VIP2); no replayed frame brings node2 back;"
                        + " VIP stays on node1", true, env, true,
                l -> Files.writeString(l.configDir("node1").resolve("ha.cf"),
                        "debugfile " + l.runDir().resolve("node1/ha-debug") + "\n", StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.APPEND),
                (lab, c) -> {
                    FailureHandlingIT.awaitHeld(lab, "node2", VIP2, 120);
                    String load = loadAverage();
                    long bad0 = badPackets(lab, "node1");
                    long debug0 = size(lab.runDir().resolve("node1/ha-debug"));
                    Path cap = lab.runDir().resolve("node2-frames.cap");
                    Py capture = Py.start(lab, lab.namespace("node1"), "capture", cap.toString(), "300", "694",
                            "198.18.0.2", "198.18.1.2");
                    Py replay = null;
                    try {
                        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(100)).until(() ->
                                capture.read().contains("capturing"));
                        Thread.sleep(CAPTURE_MS);
                        long fault0 = System.currentTimeMillis();
                        if (powerLoss) {
                            assertThat(lab.lab("poweroff", "node2").code()).isZero();
                            addressesBack(lab, "node2");
                        } else {
                            assertThat(lab.lab("freeze", "node2").code()).isZero();
                        }
                        // started now, so it is neither frozen nor killed with node2; it waits for the capture
                        replay = Py.start(lab, lab.namespace("node2"), "replay", cap.toString(), Long.toString(replayS));
                        Thread.sleep(300); // whatever node2 sent before its fault has arrived
                        String captured = capture.stop(60);
                        List<String> frames = Files.readAllLines(cap);
                        assertThat(frames).as("frames captured: " + captured).isNotEmpty();
                        long lastFrame = Long.parseLong(frames.get(frames.size() - 1).split(" ")[5]);
                        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(100)).until(() ->
                                c.logSince("node1").contains("node node2: is dead"));
                        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(100)).until(() ->
                                lab.holds("node1", VIP2));
                        long vip2 = System.currentTimeMillis();
                        Matcher r = Py.parse(REPLAYED, replay.finish(replayS + 60), "replay");
                        long began = Long.parseLong(r.group(4));
                        String log1 = c.logSince("node1");
                        String deadLine = lineWith(log1, "node node2: is dead");
                        long dead = logMillis(deadLine);
                        String status = lab.lab("status", "node1").output();
                        assertThat(status).as("node1's view after the replay").containsPattern("node2 +dead");
                        assertThat(lab.holds("node1", VIP2)).as("VIP2 still on node1 after the replay").isTrue();
                        FaultMatrix.awaitServing(lab, "node1");

                        // node2's links: kept up by the replayed copies of node2's newest frame, or not
                        String links = linkLines(status);
                        // (the drill's log: a link that no replay refreshes dies with the node, in the same
                        // evaluation, so its line may come just before the node's)
                        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).until(() -> {
                            String since = c.logSince("node1");
                            return since.contains("Link node2:eth0 dead.") && since.contains("Link node2:eth1 dead.");
                        });
                        String drillLog = c.logSince("node1");
                        String afterDeathAll = drillLog.substring(drillLog.indexOf(deadLine));
                        long linksDead = Math.max(logMillis(lineWith(drillLog, "Link node2:eth0 dead.")),
                                logMillis(lineWith(drillLog, "Link node2:eth1 dead.")));
                        assertThat(afterDeathAll).as("node2 brought back after its death").doesNotContain(
                                "Status update for node node2").doesNotContain("Heartbeat restart on node node2")
                                .doesNotContain("returning after partition");
                        long ended = Long.parseLong(r.group(5));
                        long bad = badPackets(lab, "node1") - bad0;
                        String debug = tail(lab.runDir().resolve("node1/ha-debug"), debug0);
                        long staleLines = StonithIT.countOf(debug, "Dropped frame from before");
                        long staleTotal = lastStaleTotal(debug);
                        int linkUps = StonithIT.countOf(afterDeathAll, "Link node2:eth0 up.")
                                + StonithIT.countOf(afterDeathAll, "Link node2:eth1 up.");
                        long replayedBeforeDeath = began < dead ? dead - began : 0;
                        Figures.print("replay_captured", frames.size(), "frames", "node2 -> node1, to its fault");
                        Figures.print("replay_sent", Long.parseLong(r.group(1)), "frames", r.group(2) + " rounds");
                        Figures.print("replay_began_after_last_frame", began - lastFrame, "ms", "");
                        Figures.print("replay_dead_after_last_frame", dead - lastFrame, "ms", "deadtime " + deadtimeMs);
                        Figures.print("replay_dead_after_fault", dead - fault0, "ms", "deadtime " + deadtimeMs);
                        Figures.print("replay_vip2_after_fault", vip2 - fault0, "ms", "node1 holds VIP2 (polled)");
                        Figures.print("replay_stale_counted", staleTotal, "frames", "node1's last 'Dropped frame from"
                                + " before' line, " + staleLines + " lines");
                        Figures.print("replay_link_ups_after_death", linkUps, "lines", "'Link node2:ethN up.'");
                        Figures.print("replay_links_dead_after_death", linksDead - dead, "ms", "last link dead");
                        Figures.print("replay_links_dead_after_replay", linksDead - ended, "ms", "deadtime "
                                + deadtimeMs);
                        return String.format("captured %d frames of live node2 (%d s, its last %d ms after the fault"
                                        + " began); replayed %s frames in %s rounds (%s errors) from %d ms after"
                                        + " node2's last real frame, %d ms of it before node1's deadline; node1:"
                                        + " node2 dead %d ms after its last real frame (deadtime %d ms; %d ms after"
                                        + " the fault), VIP2 held %d ms after the fault; no revival; stale frames"
                                        + " counted %d (%d debug lines), bad packets %d; node2's links: %s just"
                                        + " after the replay, declared dead %d ms after node2 (%d ms after the"
                                        + " replay ended), %d link-up lines after the death; load average %s at"
                                        + " the start; ARP %s",
                                frames.size(), CAPTURE_MS / 1000, lastFrame - fault0, r.group(1), r.group(2),
                                r.group(3), began - lastFrame, replayedBeforeDeath, dead - lastFrame, deadtimeMs,
                                dead - fault0, vip2 - fault0, staleTotal, staleLines, bad, links,
                                linksDead - dead, linksDead - ended, linkUps, load, c.watch.arpHistory());
                    } finally {
                        capture.destroy();
                        if (replay != null) {
                            replay.destroy();
                        }
                    }
                });
    }

    /**
     * A powered-off node's addresses and links back, with no process of its own: what the lab's poweron
     * does first, without its holder and sshd (seconds on a busy machine), so the replay starts early.
     */
    static void addressesBack(Lab lab, String node) throws Exception {
        String ns = lab.namespace(node);
        String n = node.substring(node.length() - 1);
        for (List<String> cmd : List.of(List.of("addr", "replace", "198.18.0." + n + "/24", "dev", "eth0"),
                List.of("addr", "replace", "198.18.1." + n + "/24", "dev", "eth1"), List.of("link", "set", "eth0", "up"),
                List.of("link", "set", "eth1", "up"))) {
            List<String> argv = new ArrayList<>(List.of("ip", "-n", ns));
            argv.addAll(cmd);
            Lab.Result r = lab.run(argv, 10);
            assertThat(r.code()).as(String.join(" ", argv) + ": " + r.output()).isZero();
        }
    }

    // ------------------------------------------------------------------ readings

    /** {@code node}'s daemon's resident set (VmRSS), in kB; -1 if it cannot be read. */
    static long rssKb(Lab lab, String node) {
        try {
            String pid = Files.readString(lab.runDir().resolve(node).resolve("daemon.pid")).trim();
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** The machine's 1-minute load average ({@code /proc/loadavg}), for the reader of the figures. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The "Bad packets: N" of {@code hb status} on {@code node}. */
    static long badPackets(Lab lab, String node) throws Exception {
        Lab.Result r = lab.lab("status", node);
        Matcher m = Pattern.compile("(?m)^Bad packets: (\\d+)$").matcher(r.output());
        assertThat(m.find()).as("hb status on " + node + " shows 'Bad packets: N'\n" + r.output()).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** The bad-packet count once two readings in a row agree (the daemon has read what the kernel queued). */
    static long settledBadPackets(Lab lab, String node) throws Exception {
        long[] last = {badPackets(lab, node)};
        await().atMost(Figures.HANG).pollInterval(Duration.ofSeconds(1)).until(() -> {
            long now = badPackets(lab, node);
            boolean same = now == last[0];
            last[0] = now;
            return same;
        });
        return last[0];
    }

    /** The {@code Udp:} counters of {@code /proc/net/snmp} in {@code node}'s network namespace. */
    static Map<String, Long> udp(Lab lab, String node) throws Exception {
        Lab.Result r = lab.run(List.of("ip", "netns", "exec", lab.namespace(node), "cat", "/proc/net/snmp"), 10);
        List<String[]> rows = new ArrayList<>();
        for (String line : r.output().split("\n")) {
            if (line.startsWith("Udp: ")) {
                rows.add(line.substring(5).trim().split("\\s+"));
            }
        }
        Map<String, Long> out = new TreeMap<>();
        if (rows.size() >= 2) {
            for (int i = 0; i < rows.get(0).length && i < rows.get(1).length; i++) {
                out.put(rows.get(0)[i], Long.parseLong(rows.get(1)[i]));
            }
        }
        return out;
    }

    /** The lines of {@code hb status} about drops and media counters, joined with "; ". */
    static String dropLines(String status) {
        List<String> out = new ArrayList<>();
        for (String line : status.split("\n")) {
            String t = line.strip();
            if (t.startsWith("Medium ") || t.startsWith("Log lines dropped") || t.toLowerCase().contains("queue")) {
                out.add(t);
            }
        }
        return out.isEmpty() ? "hb status shows no drop counter" : "hb status: " + String.join("; ", out);
    }

    /** node2's link lines of {@code hb status}, e.g. {@code link eth0 up}, joined with ", ". */
    static String linkLines(String status) {
        List<String> out = new ArrayList<>();
        boolean inNode2 = false;
        for (String line : status.split("\n")) {
            String t = line.strip();
            if (line.startsWith("  ") && !line.startsWith("    ")) {
                inNode2 = t.startsWith("node2 ");
                if (inNode2) {
                    out.add(t.replaceAll("\\s+", " "));
                }
            } else if (inNode2 && t.startsWith("link ")) {
                out.add(t.replaceAll("\\s+", " "));
            }
        }
        return String.join(", ", out);
    }

    static String lineWith(String log, String part) {
        for (String line : log.split("\n")) {
            if (line.contains(part)) {
                return line;
            }
        }
        throw new AssertionError("no line with '" + part + "'");
    }

    /** The wall-clock time of an ha-log line ({@code 2026/01/31_12:00:00.123 node1 hb[..]: ...}), epoch ms. */
    static long logMillis(String line) {
        return LocalDateTime.parse(line.substring(0, 23), LOG_TIME).atZone(ZoneId.systemDefault()).toInstant()
                .toEpochMilli();
    }

    static long lastStaleTotal(String debug) {
        long total = 0;
        Matcher m = STALE_TOTAL.matcher(debug);
        while (m.find()) {
            total = Long.parseLong(m.group(1));
        }
        return total;
    }

    static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    static String tail(Path f, long from) throws IOException {
        if (!Files.exists(f)) {
            return "";
        }
        byte[] all = Files.readAllBytes(f);
        int start = (int) Math.min(all.length, from);
        return new String(all, start, all.length - start, StandardCharsets.UTF_8);
    }

    /** One run of {@code bench/hb-frames.py} inside a lab namespace, its output in a file; ended by its PID. */
    record Py(Process process, Path out) {
        static Py start(Lab lab, String namespace, String... args) throws IOException {
            // Debian's python3 when present: a version manager's shim on PATH costs seconds to start on a busy machine
            String python = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
            List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", namespace, python,
                    root().resolve("bench/hb-frames.py").toString()));
            argv.addAll(List.of(args));
            Path out = Files.createTempFile(lab.runDir(), "hb-frames", ".out");
            // ip netns exec execs python3: the process ended by destroy() is the sender itself
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            return new Py(p, out);
        }

        /** Waits for the script to end (at most {@code timeoutS}, a hang bound) and returns what it printed. */
        String finish(long timeoutS) throws Exception {
            if (!process.waitFor(timeoutS, TimeUnit.SECONDS)) {
                destroy();
                throw new AssertionError("hb-frames.py did not end within " + timeoutS + " s: " + read());
            }
            return read();
        }

        /** SIGTERM (the capture ends cleanly on it), then {@link #finish}. */
        String stop(long timeoutS) throws Exception {
            process.destroy();
            return finish(timeoutS);
        }

        String read() throws IOException {
            return Files.readString(out, StandardCharsets.UTF_8).strip();
        }

        void destroy() throws InterruptedException {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        }

        static Matcher parse(Pattern p, String output, String what) {
            Matcher m = p.matcher(output);
            assertThat(m.find()).as(what + " printed: " + output).isTrue();
            return m;
        }
    }
}
