package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * The fault matrix: every fault of the matrix drilled in the lab, each with its
 * expected outcome checked and, throughout, "never two nodes serving the VIP" checked from the
 * client's ARP view and from the nodes' addresses ({@link VipWatch}). Run by {@link FaultMatrixIT}
 * (a CI subset always, all of it with {@code -Djhb.drills=true}) or {@code bench/fault-matrix.sh}.
 * Prints one table: scenario, expected, observed, never two serving, time, PASS/FAIL. Times are
 * figures, never asserted; the waits are hang bounds.
 *
 * <p>Without STONITH a split brain (both links cut, a node frozen past deadtime, a daemon killed and
 * not restarted) makes both nodes serve until the partition heals: Heartbeat 3.0.6 does the same
 * (ha.cf(5) "stonith", heartbeat's "Cluster node X returning after partition" and its restart); those
 * rows expect "no" in the never-two column and check that one node lets go after the heal.
 */
final class FaultMatrix {
    static final String VIP = FailoverIT.VIP;

    private FaultMatrix() {
    }

    /** A drill on a lab that is up (and booted, unless the scenario boots itself). Returns what it observed. */
    @FunctionalInterface
    interface Drill {
        String run(Lab lab, Ctx ctx) throws Exception;
    }

    /** Prepares a lab before its daemons start (files, disks). */
    @FunctionalInterface
    interface Setup {
        void run(Lab lab) throws Exception;
    }

    /**
     * One fault. {@code expectNeverTwo} is the expected value of the never-two-serving column;
     * {@code boot} false: the drill starts the daemons itself.
     */
    record Scenario(String name, String expected, boolean expectNeverTwo, Map<String, String> env, boolean boot,
            Setup setup, Drill drill) {
    }

    /** One line of the table. */
    record Row(String scenario, String expected, String observed, boolean neverTwo, long ms, boolean pass) {
    }

    /** What a drill sees: the lab, the watch and where each node's ha-log stood when the drill began. */
    static final class Ctx {
        final VipWatch watch;
        private final Map<String, Integer> logStart = new HashMap<>();
        private final Lab lab;

        Ctx(Lab lab, VipWatch watch) throws Exception {
            this.lab = lab;
            this.watch = watch;
            for (String n : List.of("node1", "node2")) {
                logStart.put(n, haLog(lab, n).length());
            }
        }

        /** {@code node}'s ha-log written since the drill began. */
        String logSince(String node) throws Exception {
            String all = haLog(lab, node);
            return all.substring(Math.min(all.length(), logStart.get(node)));
        }
    }

    static String haLog(Lab lab, String node) {
        try {
            return Files.readString(lab.runDir().resolve(node).resolve("ha-log"), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    static String other(String node) {
        return node.equals("node1") ? "node2" : "node1";
    }

    /** Starts both daemons and waits until node1 serves the VIP alone. */
    static void boot(Lab lab) throws Exception {
        assertThat(lab.lab("start", "node1").code()).as(lab.daemonLog("node1", 20)).isZero();
        assertThat(lab.lab("start", "node2").code()).as(lab.daemonLog("node2", 20)).isZero();
        FailureHandlingIT.awaitHeld(lab, "node1", VIP, 120);
    }

    /** Waits until {@code node} alone holds the VIP and the client's HTTP request is answered by it. */
    static void awaitServing(Lab lab, String node) throws Exception {
        FailureHandlingIT.awaitHeld(lab, node, VIP, 120);
        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).until(() -> node.equals(lab.http()));
    }

    /** For {@code ms}: {@code node} holds the VIP and the other node never does (polled every 250 ms). */
    static void staysOn(Lab lab, String node, long ms) throws Exception {
        long end = System.nanoTime() + ms * 1_000_000;
        while (System.nanoTime() < end) {
            assertThat(lab.holds(node, VIP)).as("VIP still on " + node).isTrue();
            assertThat(lab.holds(other(node), VIP)).as("VIP never on " + other(node)).isFalse();
            Thread.sleep(250);
        }
    }

    static boolean daemonAlive(Lab lab, String node) {
        try {
            Path f = lab.runDir().resolve(node).resolve("daemon.pid");
            if (!Files.exists(f)) {
                return false;
            }
            return ProcessHandle.of(Long.parseLong(Files.readString(f).trim())).map(ProcessHandle::isAlive).orElse(false);
        } catch (Exception e) {
            return false;
        }
    }

    static void noDeath(Ctx c) throws Exception {
        for (String n : List.of("node1", "node2")) {
            assertThat(c.logSince(n)).as(n + "'s ha-log").doesNotContain("node " + other(n) + ": is dead");
        }
    }

    // ------------------------------------------------------------------ environments

    static final Map<String, String> BASE = Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_WARNTIME", "2",
            "LAB_INITDEAD", "10", "LAB_AUTO_FAILBACK", "on");
    /** The CI lab: a deadtime far above a JVM restart on a busy machine (a SIGKILLed daemon comes back within it). */
    static final Map<String, String> CI = Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "10", "LAB_WARNTIME", "5",
            "LAB_INITDEAD", "20", "LAB_AUTO_FAILBACK", "on");

    static Map<String, String> with(Map<String, String> base, String... kv) {
        Map<String, String> m = new HashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return Map.copyOf(m);
    }

    // ------------------------------------------------------------------ the scenarios

    /** A freeze of node1 well inside deadtime: nobody is declared dead, nothing moves. */
    static Scenario frozenThawed(Map<String, String> env) {
        long freezeMs = Math.min(3000, Long.parseLong(env.get("LAB_DEADTIME")) * 1000 / 2);
        return new Scenario("frozen node (SIGSTOP " + freezeMs + " ms, half the deadtime at most) then thawed",
                "no death, VIP stays on node1", true, env, true, l -> { }, (lab, c) -> {
                    lab.lab("freeze", "node1");
                    Thread.sleep(freezeMs);
                    lab.lab("thaw", "node1");
                    staysOn(lab, "node1", 4000);
                    awaitServing(lab, "node1");
                    noDeath(c);
                    return "no death; VIP on node1 throughout; ARP " + c.watch.arpHistory();
                });
    }

    /**
     * The passive node frozen just past deadtime, twice: resumed, it reads node1's beats that waited in
     * its socket buffer before declaring anything (docs/design/failure-detection.md, "Pauses of this
     * process"). Before, its first tick found node1 silent beyond deadtime and it took the VIP node1 served.
     */
    static Scenario frozenPassiveJustPastDeadtime(Map<String, String> env) {
        long freezeMs = Long.parseLong(env.get("LAB_DEADTIME")) * 1000 + 300;
        return new Scenario("passive node frozen just past deadtime (SIGSTOP " + freezeMs + " ms, twice) then thawed",
                "the resumed node declares nobody dead, takes nothing; VIP stays on node1", true, env, true, l -> { },
                (lab, c) -> {
                    for (int i = 0; i < 2; i++) {
                        lab.lab("freeze", "node2");
                        Thread.sleep(freezeMs);
                        lab.lab("thaw", "node2");
                        staysOn(lab, "node1", 4000);
                    }
                    awaitServing(lab, "node1");
                    assertThat(c.logSince("node2")).doesNotContain("node node1: is dead")
                            .contains("This node did not run for");
                    return "node2 took nothing after either resume; VIP on node1 throughout; ARP "
                            + c.watch.arpHistory();
                });
    }

    /** SIGKILL of the active daemon (its resources stay up, unmanaged) and a restart within deadtime. */
    static Scenario sigkillRestarted(Map<String, String> env) {
        return new Scenario("daemon SIGKILL, restarted within deadtime",
                "resources left running; restarted daemon releases and re-takes its group; peer never takes it",
                true, env, true, l -> { }, (lab, c) -> {
                    StartupReconcileIT.sigkill(lab, "node1");
                    boolean servingOrphan = "node1".equals(lab.http());
                    assertThat(lab.lab("start", "node1").code()).as(lab.daemonLog("node1", 30)).isZero();
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            c.logSince("node1").contains("released at start-up"));
                    awaitServing(lab, "node1");
                    noDeath(c);
                    return "orphan VIP " + (servingOrphan ? "served" : "held") + " while no daemon ran; released at"
                            + " start-up, re-taken by node1; no death; ARP " + c.watch.arpHistory();
                });
    }

    /** The crossover (eth1) goes down and up every 1–2 s: eth0 still carries beats, nobody dies. */
    static Scenario flapping(Map<String, String> env, long seconds) {
        return new Scenario("flapping eth1 (down/up every 1-2 s for " + seconds + " s)",
                "no death, no move; eth1 up at the end", true, env, true, l -> { }, (lab, c) -> {
                    Random r = new Random(16);
                    long end = System.nanoTime() + seconds * 1_000_000_000L;
                    int flaps = 0;
                    while (System.nanoTime() < end) {
                        lab.lab("linkdown", "node1", "eth1");
                        Thread.sleep(1000 + r.nextInt(1000));
                        lab.lab("linkup", "node1", "eth1");
                        flaps++;
                        Thread.sleep(1000 + r.nextInt(1000));
                        assertThat(lab.holds("node1", VIP) && !lab.holds("node2", VIP)).as("VIP on node1 alone").isTrue();
                    }
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            lab.lab("status", "node2").output().contains("link eth1       up"));
                    awaitServing(lab, "node1");
                    noDeath(c);
                    int dead = StonithIT.countOf(c.logSince("node2"), "Link node1:eth1 dead.");
                    return flaps + " flaps, eth1 declared dead " + dead + "x by node2, no node death, VIP on node1;"
                            + " ARP " + c.watch.arpHistory();
                });
    }

    /** The CI subset: fast scenarios on one shared lab ({@link #CI}). */
    static List<Scenario> ciSubset() {
        return List.of(frozenThawed(CI), frozenPassiveJustPastDeadtime(CI), sigkillRestarted(CI), flapping(CI, 10));
    }

    /** Every scenario of the fault matrix (docs/benchmarks.md), each on its own fresh lab. */
    static List<Scenario> all() {
        Map<String, String> serialUcast = with(BASE, "LAB_MEDIA", "serial+ucast");
        Map<String, String> stonith = with(BASE, "LAB_STONITH", "apcsmart");
        Map<String, String> stonithSerial = with(BASE, "LAB_STONITH", "apcsmart", "LAB_MEDIA", "serial+ucast");
        Map<String, String> flaky = with(BASE, "LAB_HARESOURCES", FailureHandlingIT.FLAKY, "LAB_AUTO_FAILBACK", "off");
        List<Scenario> s = new ArrayList<>();
        s.add(new Scenario("eth1 cut", "no death (eth0 carries beats), link eth1 dead, VIP stays on node1", true, BASE,
                true, l -> { }, (lab, c) -> {
                    lab.lab("linkdown", "node1", "eth1");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            c.logSince("node2").contains("Link node1:eth1 dead."));
                    staysOn(lab, "node1", 6000);
                    lab.lab("linkup", "node1", "eth1");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            c.logSince("node2").contains("Link node1:eth1 up."));
                    awaitServing(lab, "node1");
                    noDeath(c);
                    return "Link node1:eth1 dead then up, no node death, VIP on node1; ARP " + c.watch.arpHistory();
                }));
        s.add(new Scenario("serial cut", "no death (eth1 carries beats), serial link dead, VIP stays on node1", true,
                serialUcast, true, l -> { }, (lab, c) -> {
                    lab.lab("serialcut");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            c.logSince("node2").matches("(?s).*Link node1:\\S*ttyS0 dead\\..*"));
                    staysOn(lab, "node1", 6000);
                    lab.lab("serialplug");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            c.logSince("node2").matches("(?s).*Link node1:\\S*ttyS0 up\\..*"));
                    awaitServing(lab, "node1");
                    noDeath(c);
                    return "serial link dead then up, no node death, VIP on node1; ARP " + c.watch.arpHistory();
                }));
        s.add(new Scenario("both links cut, no STONITH",
                "split brain: node2 takes over while node1 keeps serving (as Heartbeat 3.0.6); after the heal node2"
                        + " lets go, node1 alone", false, serialUcast, true, l -> { }, (lab, c) -> {
                    lab.lab("serialcut");
                    lab.lab("linkdown", "node1", "eth1");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() -> lab.holds("node2", VIP));
                    boolean both = lab.heldByBoth(VIP);
                    Thread.sleep(3000);
                    lab.lab("serialplug");
                    lab.lab("linkup", "node1", "eth1");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            (c.logSince("node1") + c.logSince("node2")).contains("returning after partition"));
                    awaitServing(lab, "node1");
                    staysOn(lab, "node1", 3000);
                    return "both held the VIP during the cut: " + both + "; healed: 'returning after partition', node1"
                            + " alone; ARP " + c.watch.arpHistory();
                }));
        s.add(new Scenario("both links cut, STONITH (apcsmart)",
                "exactly one node survives and serves; the other is powered off by its UPS", true, stonithSerial, true,
                l -> { }, (lab, c) -> {
                    lab.lab("serialcut");
                    lab.lab("linkdown", "node1", "eth1");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            !daemonAlive(lab, "node1") || !daemonAlive(lab, "node2"));
                    // a reset still in flight (the UPS's grace delay, ~30 s) may yet kill the other node
                    Thread.sleep(45_000);
                    boolean alive1 = daemonAlive(lab, "node1");
                    boolean alive2 = daemonAlive(lab, "node2");
                    assertThat(alive1 || alive2).as("a survivor: both nodes fenced each other (node1: "
                            + resetLine(c, "node1") + "; node2: " + resetLine(c, "node2") + ")").isTrue();
                    String survivor = alive1 ? "node1" : "node2";
                    awaitServing(lab, survivor);
                    staysOn(lab, survivor, 5000);
                    assertThat(daemonAlive(lab, other(survivor))).as(other(survivor) + " stays off").isFalse();
                    return survivor + " fenced " + other(survivor) + " and serves alone; ARP " + c.watch.arpHistory();
                }));
        s.add(bothCutActiveActive(with(stonithSerial, "LAB_GROUPS", "active-active")));
        s.add(new Scenario("node power-off", "node2 takes over; node1 back: fails back (auto_failback on)", true, BASE,
                true, l -> { }, (lab, c) -> {
                    lab.lab("poweroff", "node1");
                    long t0 = System.nanoTime();
                    awaitServing(lab, "node2");
                    long over = (System.nanoTime() - t0) / 1_000_000;
                    lab.lab("poweron", "node1");
                    lab.lab("start", "node1");
                    awaitServing(lab, "node1");
                    return "node2 served " + over + " ms after the power-off; failback to node1; ARP "
                            + c.watch.arpHistory();
                }));
        s.add(frozenThawed(BASE));
        s.add(frozenPassiveJustPastDeadtime(BASE));
        s.add(new Scenario("frozen node past deadtime, no STONITH, thawed",
                "node2 takes over while frozen node1's kernel still answers ARP (as Heartbeat 3.0.6); thawed: one"
                        + " node lets go, node1 alone", false, BASE, true, l -> { }, (lab, c) -> {
                    lab.lab("freeze", "node1");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() -> lab.holds("node2", VIP));
                    Thread.sleep(3000);
                    lab.lab("thaw", "node1");
                    awaitServing(lab, "node1");
                    staysOn(lab, "node1", 3000);
                    return "node2 took over during the freeze; after the thaw node1 alone; ARP " + c.watch.arpHistory();
                }));
        s.add(new Scenario("frozen node past deadtime, STONITH (apcsmart)",
                "node1 fenced (powered off by its UPS), then node2 serves; never two", true, stonith, true, l -> { },
                (lab, c) -> {
                    lab.lab("freeze", "node1");
                    awaitServing(lab, "node2");
                    lab.lab("thaw", "node1");
                    assertThat(c.logSince("node2")).contains("node node1 now reset.");
                    assertThat(daemonAlive(lab, "node1")).isFalse();
                    staysOn(lab, "node2", 3000);
                    return "node1 reset through its UPS, node2 serves; ARP " + c.watch.arpHistory();
                }));
        s.add(sigkillRestarted(with(BASE, "LAB_DEADTIME", "20", "LAB_WARNTIME", "10", "LAB_INITDEAD", "40")));
        s.add(new Scenario("daemon SIGKILL, not restarted, no STONITH",
                "resources left running on node1 and node2 takes over: both serve (as Heartbeat 3.0.6); daemon"
                        + " restarted: releases its orphans, node1 alone", false, BASE, true, l -> { }, (lab, c) -> {
                    StartupReconcileIT.sigkill(lab, "node1");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() -> lab.holds("node2", VIP));
                    boolean both = lab.heldByBoth(VIP);
                    Thread.sleep(2000);
                    assertThat(lab.lab("start", "node1").code()).isZero();
                    awaitServing(lab, "node1");
                    staysOn(lab, "node1", 3000);
                    return "orphans and node2 both held the VIP: " + both + "; restarted: node1 alone; ARP "
                            + c.watch.arpHistory();
                }));
        s.add(new Scenario("daemon SIGKILL, not restarted, STONITH (apcsmart)",
                "node2 fences node1 (the UPS powers off the orphaned resources) before taking over; never two",
                true, stonith, true, l -> { }, (lab, c) -> {
                    StartupReconcileIT.sigkill(lab, "node1");
                    awaitServing(lab, "node2");
                    assertThat(c.logSince("node2")).contains("node node1 now reset.");
                    assertThat(lab.holds("node1", VIP)).isFalse();
                    staysOn(lab, "node2", 3000);
                    return "node1 reset, its orphan VIP gone, node2 serves; ARP " + c.watch.arpHistory();
                }));
        s.add(flapping(BASE, Long.getLong("jhb.faults.flapSeconds", 60)));
        s.add(new Scenario("both nodes booting at once", "node1 (preferred) serves alone, never two", true, BASE, false,
                l -> { }, (lab, c) -> {
                    CompletableFuture<Lab.Result> n2 = CompletableFuture.supplyAsync(() -> {
                        try {
                            return lab.lab("start", "node2");
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    assertThat(lab.lab("start", "node1").code()).isZero();
                    assertThat(n2.get().code()).isZero();
                    awaitServing(lab, "node1");
                    staysOn(lab, "node1", 3000);
                    return "node1 serves alone; ARP " + c.watch.arpHistory();
                }));
        s.add(new Scenario("UPS unreachable (STONITH fails)",
                "node1 frozen, its UPS unplugged: CRIT retries, no takeover; UPS back: fenced, node2 serves", true,
                stonith, true, l -> { }, (lab, c) -> {
                    lab.lab("upsstop", "node1");
                    lab.lab("freeze", "node1");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).until(() ->
                            StonithIT.countOf(c.logSince("node2"), "STONITH of node1 failed.  Retrying...") >= 2);
                    assertThat(lab.holds("node2", VIP)).as("no takeover while the fence fails").isFalse();
                    lab.lab("upsstart", "node1");
                    awaitServing(lab, "node2");
                    lab.lab("thaw", "node1");
                    assertThat(daemonAlive(lab, "node1")).isFalse();
                    return "STONITH failed " + StonithIT.countOf(c.logSince("node2"), "STONITH of node1 failed.")
                            + "x, no takeover meanwhile; UPS back: node1 reset, node2 serves; ARP "
                            + c.watch.arpHistory();
                }));
        s.add(new Scenario("resource start failure", "start fails on node1: the group runs on node2, node1 shows failed",
                true, flaky, false, l -> {
                    Files.createDirectories(FailureHandlingIT.state(l, "node1"));
                    Files.writeString(FailureHandlingIT.state(l, "node1").resolve("f1.fail-start"), "");
                }, (lab, c) -> {
                    lab.lab("start", "node1");
                    lab.lab("start", "node2");
                    FailureHandlingIT.awaitHeld(lab, "node2", VIP, 120);
                    await().atMost(Figures.HANG).until(() -> Files.exists(FailureHandlingIT.running(lab, "node2", "f1")));
                    assertThat(OperatorCommandsIT.json(lab, "node1")).contains("\"state_here\":\"failed\"");
                    staysOn(lab, "node2", 3000);
                    return "failed to start on node1, runs on node2, node1 state failed; ARP " + c.watch.arpHistory();
                }));
        s.add(new Scenario("resource stop failure",
                "hb standby exits 1; the group stays blocked on node1, never started on node2", true, flaky, true,
                l -> { }, (lab, c) -> {
                    Files.writeString(FailureHandlingIT.state(lab, "node1").resolve("f1.fail-stop"), "");
                    Lab.Result standby = FailureHandlingIT.hb(lab, "node1", "standby", "local", "--timeout", "120");
                    assertThat(standby.code()).as(standby.output()).isEqualTo(1);
                    assertThat(OperatorCommandsIT.json(lab, "node1")).contains("\"state_here\":\"blocked\"");
                    staysOn(lab, "node1", 4000);
                    return "standby exit 1 (could not be stopped), blocked on node1, node2 never started it; ARP "
                            + c.watch.arpHistory();
                }));
        s.add(new Scenario("peer config mismatch (a group defined differently)",
                "the disputed group is started by neither node; both status say disputed", true,
                with(BASE, "LAB_GROUPS", "active-active"), false, l ->
                        Files.writeString(l.configDir("node2").resolve("haresources"), "node2 " + VIP + "/24/eth0 labweb2\n"),
                (lab, c) -> {
                    lab.lab("start", "node1");
                    lab.lab("start", "node2");
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(300)).until(() ->
                            lab.lab("status", "node1").output().contains("disputed: defined differently on node2")
                                    && lab.lab("status", "node2").output().contains("disputed: defined differently on node1"));
                    long end = System.nanoTime() + 5_000_000_000L;
                    while (System.nanoTime() < end) {
                        assertThat(lab.holds("node1", VIP) || lab.holds("node2", VIP)).as("disputed VIP started").isFalse();
                        Thread.sleep(250);
                    }
                    return "disputed on both nodes, VIP started by neither; ARP " + c.watch.arpHistory();
                }));
        String label = "JHBF" + Long.toString(System.nanoTime() % 1_000_000_000L, 36).toUpperCase();
        String[] loop = new String[1];
        s.add(new Scenario("disk full during backup",
                "backup ends FULL (no snapshot), the daemon keeps beating, no death, VIP stays on node1", true,
                with(BASE, "LAB_SYNC", "web"), true, l -> {
                    SyncIT.addDrawerBackup(l, label);
                    byte[] mb = new byte[1 << 20];
                    new Random(5).nextBytes(mb);
                    for (int i = 0; i < 12; i++) {
                        Files.write(l.runDir().resolve("node1/disk-web").resolve("big" + i), mb);
                    }
                    Path image = l.runDir().resolve("backup.img");
                    assertThat(l.run(List.of("truncate", "-s", "4M", image.toString()), 10).code()).isZero();
                    assertThat(l.run(List.of("mkfs.ext4", "-q", "-L", label, image.toString()), 30).code()).isZero();
                }, (lab, c) -> {
                    Lab.Result attach = lab.run(List.of("losetup", "-f", "--show",
                            lab.runDir().resolve("backup.img").toString()), 10);
                    assertThat(attach.code()).as(attach.output()).isZero();
                    loop[0] = attach.output().trim();
                    try {
                        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).until(() ->
                                !backupResult(lab).equals("NEVER") && !backupResult(lab).isEmpty());
                        String result = backupResult(lab);
                        assertThat(result).isEqualTo("FULL");
                        staysOn(lab, "node1", 3000);
                        assertThat(daemonAlive(lab, "node1")).isTrue();
                        noDeath(c);
                        return "backup " + result + ", daemon alive, no death, VIP on node1; ARP " + c.watch.arpHistory();
                    } finally {
                        lab.run(List.of("losetup", "-d", loop[0]), 10);
                    }
                }));
        s.add(new Scenario("peer restarts faster than deadtime",
                "node1 power-cycled and restarted within deadtime 15 s: node2 never declares it dead nor takes over;"
                        + " node1 serves again", true, with(BASE, "LAB_DEADTIME", "15", "LAB_WARNTIME", "5",
                                "LAB_INITDEAD", "30"), true, l -> { }, (lab, c) -> {
                    long t0 = System.nanoTime();
                    lab.lab("poweroff", "node1");
                    lab.lab("poweron", "node1");
                    assertThat(lab.lab("start", "node1").code()).isZero();
                    long back = (System.nanoTime() - t0) / 1_000_000;
                    awaitServing(lab, "node1");
                    assertThat(c.logSince("node2")).contains("Heartbeat restart on node node1");
                    noDeath(c);
                    return "daemon back " + back + " ms after the power-off; node2 saw a restart, no death; node1"
                            + " serves; ARP " + c.watch.arpHistory();
                }));
        s.addAll(FloodDrills.all());
        return s;
    }

    /** The second VIP of {@code LAB_GROUPS=active-active}: node2's group. */
    static final String VIP2 = FailureHandlingIT.VIP2;

    /**
     * Every link cut while each node runs a group, both with STONITH (docs/design/stonith.md, "Fence
     * delay"): equal weights, so node2 (later in ha.cf) delays its fence by the default fence_delay (5 s)
     * and node1 powers it off first, then serves both VIPs. Without the delay both fenced each other and
     * nobody served. Both VIPs are watched: {@code VIP} by the runner, {@code VIP2} here.
     */
    static Scenario bothCutActiveActive(Map<String, String> env) {
        return new Scenario("both links cut, STONITH (apcsmart), active-active",
                "node2 delays its fence (equal weights, node1 first in ha.cf), node1 powers node2 off and serves"
                        + " both VIPs; never two on either VIP", true, env, true, l -> { }, (lab, c) -> {
                    FailureHandlingIT.awaitHeld(lab, "node2", VIP2, 120);
                    VipWatch watch2 = new VipWatch(lab, VIP2);
                    try {
                        long t0 = System.nanoTime();
                        lab.lab("serialcut");
                        lab.lab("linkdown", "node1", "eth1");
                        await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).until(() ->
                                !daemonAlive(lab, "node1") || !daemonAlive(lab, "node2"));
                        long firstOff = (System.nanoTime() - t0) / 1_000_000;
                        // past node2's fence delay and a whole fence more: a fence of node1 would have ended
                        Thread.sleep(15_000);
                        assertThat(daemonAlive(lab, "node1")).as("node1 survives (node1: " + resetLine(c, "node1")
                                + "; node2: " + resetLine(c, "node2") + ")").isTrue();
                        assertThat(daemonAlive(lab, "node2")).as("node2 powered off").isFalse();
                        assertThat(c.logSince("node2")).contains("Delaying STONITH of node1 by 5 s: it holds 1 resource"
                                + " group(s), we hold 1, and it comes first in ha.cf");
                        assertThat(c.logSince("node2")).doesNotContain("Resetting node node1 with STONITH");
                        assertThat(c.logSince("node1")).contains("node node2 now reset.");
                        awaitServing(lab, "node1");
                        FailureHandlingIT.awaitHeld(lab, "node1", VIP2, 120);
                        long end = System.nanoTime() + 5_000_000_000L;
                        while (System.nanoTime() < end) {
                            for (String vip : List.of(VIP, VIP2)) {
                                assertThat(lab.holds("node1", vip)).as(vip + " still on node1").isTrue();
                                assertThat(lab.holds("node2", vip)).as(vip + " never on node2").isFalse();
                            }
                            Thread.sleep(250);
                        }
                        long served = (System.nanoTime() - t0) / 1_000_000;
                        String w2 = "VIP2 arping " + watch2.arpHistory() + " (" + watch2.arpSamples() + " samples)";
                        assertThat(watch2.neverTwo()).as("never two on VIP2: " + watch2.doubles()).isTrue();
                        return "node2 delayed its fence, node1 powered it off (" + firstOff + " ms after the cut) and"
                                + " serves both VIPs (checked until " + served + " ms); " + w2 + "; ARP "
                                + c.watch.arpHistory();
                    } finally {
                        watch2.close();
                    }
                });
    }

    /** The first line of {@code node}'s ha-log since the drill began that says it reset its peer. */
    static String resetLine(Ctx c, String node) throws Exception {
        for (String line : c.logSince(node).split("\n")) {
            if (line.contains("Resetting node " + other(node) + " with [")) {
                return line.substring(0, Math.min(23, line.length())) + " resetting " + other(node);
            }
        }
        return "no reset";
    }

    /** node1's backup state's {@code lastResult} (empty before the first write). */
    private static String backupResult(Lab lab) {
        Properties p = new Properties();
        Path f = lab.varLibJheartbeat("node1").resolve("sync/backup-drawer.state");
        try (var in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (java.io.IOException e) {
            return "";
        }
        return p.getProperty("lastResult", "");
    }

    // ------------------------------------------------------------------ the runner

    /**
     * Runs {@code scenarios}; with {@code shared} non-null all on one lab made with that environment
     * and booted once (each drill ends with node1 serving), else each on a fresh lab of its own.
     */
    static List<Row> run(List<Scenario> scenarios, Map<String, String> shared) throws Exception {
        List<Row> rows = new ArrayList<>();
        if (shared != null) {
            try (Lab lab = new Lab(shared)) {
                boot(lab);
                for (Scenario s : scenarios) {
                    rows.add(drill(lab, s));
                }
            }
        } else {
            String only = System.getProperty("jhb.faults", "");
            for (Scenario s : scenarios) {
                if (!only.isEmpty() && !s.name().toLowerCase().contains(only.toLowerCase())) {
                    continue;
                }
                try (Lab lab = new Lab(s.env())) {
                    s.setup().run(lab);
                    if (s.boot()) {
                        boot(lab);
                    }
                    rows.add(drill(lab, s));
                } catch (Exception | AssertionError e) {
                    if (rows.isEmpty() || !rows.get(rows.size() - 1).scenario().equals(s.name())) {
                        rows.add(new Row(s.name(), s.expected(), "setup failed: " + firstLine(e), false, 0, false));
                    }
                }
            }
        }
        return rows;
    }

    private static Row drill(Lab lab, Scenario s) throws Exception {
        System.out.println("FAULT-MATRIX begin: " + s.name());
        long t0 = System.nanoTime();
        String observed;
        boolean ok;
        VipWatch watch = new VipWatch(lab, VIP);
        try {
            observed = s.drill().run(lab, new Ctx(lab, watch));
            ok = true;
            // two more ARP probes, so the client's view of the final state is in the history and the check
            int n = watch.arpSamples() + 2;
            await().atMost(Duration.ofSeconds(15)).until(() -> watch.arpSamples() >= n);
            observed = observed.replaceFirst("ARP .*$",
                    java.util.regex.Matcher.quoteReplacement("ARP " + watch.arpHistory()));
        } catch (Exception | AssertionError e) {
            observed = "FAILED: " + firstLine(e) + "; ARP " + watch.arpHistory();
            ok = false;
            System.out.println("node1:\n" + lab.daemonLog("node1", 40) + "\nnode2:\n" + lab.daemonLog("node2", 40));
        } finally {
            watch.close();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        boolean never = watch.neverTwo();
        observed += " [" + watch.arpSamples() + " ARP / " + watch.addrSamples() + " addr samples"
                + (never ? "" : "; two serving at " + String.join(", ", watch.doubles())) + "]";
        Row row = new Row(s.name(), s.expected(), observed, never, ms, ok && never == s.expectNeverTwo());
        System.out.println("FAULT-MATRIX end: " + s.name() + " " + (row.pass() ? "PASS" : "FAIL") + " " + observed);
        return row;
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage()).strip();
        int nl = m.indexOf('\n');
        m = (nl < 0 ? m : m.substring(0, nl)).replace('|', '/');
        return e.getClass().getSimpleName() + ": " + (m.length() > 200 ? m.substring(0, 200) + "…" : m);
    }

    /** The table in Markdown (so it goes into docs/benchmarks.md as printed). */
    static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| scenario | expected | observed | never two serving | time | result |\n");
        sb.append("| --- | --- | --- | --- | --- | --- |\n");
        for (Row r : rows) {
            sb.append("| ").append(r.scenario()).append(" | ").append(r.expected()).append(" | ")
                    .append(r.observed().replace('|', '/')).append(" | ").append(r.neverTwo() ? "yes" : "no")
                    .append(" | ").append(String.format("%.1f s", r.ms() / 1000.0)).append(" | ")
                    .append(r.pass() ? "PASS" : "FAIL").append(" |\n");
        }
        return sb.toString();
    }
}
