package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.jheartbeat.cli.CommandLines;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The move from a running jheartbeat pair to Corosync 3 + Pacemaker 2 on the same two nodes, as
 * docs/migrate-to-pacemaker.md tells it, with one planned outage per group. The pair runs the lab's
 * active/active groups (node1: VIP 198.18.0.100 + labweb on :8080; node2: VIP2 198.18.0.101 + labweb2 on
 * :8081; each web service answers its node's name). Then:
 * <ol>
 *   <li>{@code hb export pacemaker --unmanaged}: cib.xml with every group {@code is-managed=false};</li>
 *   <li>Corosync + Pacemaker started on both nodes beside the running jheartbeat ({@code lab/pcmk-node.sh}, the
 *       CIB installed before the first start); Pacemaker probes each group, finds it where jheartbeat runs it,
 *       and starts or stops nothing;</li>
 *   <li>per group: {@code hb resources remove KEY} + {@code hb reload} on the node that does not run it, then on
 *       the node that does (jheartbeat stops it there and nowhere starts it: the reload path); once its
 *       {@code group-stopped} event is in the journal, {@code crm_resource --refresh} (a fresh probe: crm_mon shows
 *       it Stopped, unmanaged) and {@code crm_resource --meta --delete-parameter is-managed}: Pacemaker starts it on its
 *       preferred node;</li>
 *   <li>jheartbeat stopped on both nodes.</li>
 * </ol>
 * Asserted at the end: crm_mon shows every member Started on its node and managed; no jheartbeat daemon answers
 * on either node; the client is served by both groups.
 *
 * <p><b>Never on two nodes.</b> A group is "answered by two nodes" when any of these sees it: (a) the client's
 * sample ({@link ClientSamples}: HTTP GET through the VIP every ~100 ms, one sampler per group) was answered by
 * one node while the client's ARP entry for the VIP, read right after, named the other; (b) one {@code arping}
 * of the VIP from the client got replies from both nodes' MACs, about once a second ({@link VipWatch}); (c) both
 * nodes' namespaces held the VIP across node1/node2/node1 address probes, about every 100 ms ({@link VipWatch});
 * (d) the group's service port listened in both nodes across node1/node2/node1 {@code ss} probes, about every
 * 200 ms ({@link GroupSampler.ListenWatch}). Sequential probes cannot prove an overlap shorter than a probe
 * period absent: (b)-(d) catch any that lasts longer, (a) any the client met.
 *
 * <p><b>One outage per group.</b> A client sample is served when it got an answer or its TCP connection was at
 * least accepted (the VIP was up and the service listened; only the answer was slower than the 0.5 s timeout, as
 * on a busy machine): a group that stops removes its service before its address and starts it after, so while it
 * is down the client meets resets or silence. A group's outage is a maximal run of samples not served after it
 * was served; exactly one per group over the whole procedure, ending before the last sample. Its length (from
 * the last served sample before it to the first after: an upper bound, to one sample period, ~0.1-0.6 s) is
 * printed, with its parts (jheartbeat's stop from the journal, the wait and the Pacemaker commands, Pacemaker's
 * start until the client's first answer); the bound asserted (60 s) only catches a hang. A drill
 * ({@code -Djhb.drills=true}): about 65 s of test, 2-4 min with the build, on the busy 2-core machine.
 */
@Tag("root")
class PacemakerMigrationDrillIT {
    private static final String VIP = "198.18.0.100";
    private static final String VIP2 = "198.18.0.101";

    /** One group as jheartbeat, Pacemaker and the client name it. */
    private record Grp(String key, String cibId, List<String> members, String node, String other, String vip,
                       int port) {
    }

    private static final List<Grp> GROUPS = List.of(
            new Grp(VIP + "/24/eth0", "grp-ip-" + VIP, List.of("ip-" + VIP, "labweb"), "node1", "node2", VIP, 8080),
            new Grp(VIP2 + "/24/eth0", "grp-ip-" + VIP2, List.of("ip-" + VIP2, "labweb2"), "node2", "node1", VIP2, 8081));

    @Test
    void groupsMoveFromJheartbeatToPacemakerOneOutageEachNeverOnTwoNodes() throws Exception {
        assumeTrue(Boolean.getBoolean("jhb.drills"), "a drill: run with -Djhb.drills=true (docs/testing.md)");
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/pacemakerd")) && Files.isExecutable(Path.of("/usr/sbin/corosync")),
                "corosync and pacemaker are not installed (scripts/setup.sh: pacemaker-cli-utils)");
        try (Lab lab = new Lab(Map.of("LAB_GROUPS", "active-active"))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            lab.waitUntil(() -> lab.http().equals("node1") && "node2".equals(http2(lab)), Figures.HANG_MS,
                    "jheartbeat serving both groups");

            // 1. the export, every group unmanaged
            Path out = lab.runDir().resolve("pcmk-export");
            StringWriter o = new StringWriter();
            StringWriter e = new StringWriter();
            CommandLine cl = CommandLines.newCommandLine();
            cl.setOut(new PrintWriter(o, true));
            cl.setErr(new PrintWriter(e, true));
            int code = cl.execute("export", "pacemaker", "--unmanaged", "--config-dir", lab.configDir("node1").toString(),
                    "--out", out.toString(), "--node-address", "node1=198.18.1.1,198.18.0.1",
                    "--node-address", "node2=198.18.1.2,198.18.0.2");
            assertThat(code).as("export: %s%n%s", o, e).isZero();

            List<GroupSampler> samplers = new ArrayList<>();
            List<VipWatch> arp = new ArrayList<>();
            GroupSampler.ListenWatch listen = new GroupSampler.ListenWatch(lab, List.of(8080, 8081));
            long t0 = System.nanoTime();
            List<String> steps = new ArrayList<>();
            try {
                for (Grp g : GROUPS) {
                    samplers.add(new GroupSampler(lab, g.cibId(), g.vip(), g.port()));
                    arp.add(new VipWatch(lab, g.vip()));
                }
                lab.waitUntil(() -> samplers.stream().allMatch(s -> {
                    try {
                        return s.samples().size() >= 3;
                    } catch (java.io.IOException x) {
                        return false;
                    }
                }), Figures.HANG_MS, "the client's first samples");

                // 2. Corosync + Pacemaker beside jheartbeat; the probes find each group where it runs
                Path script = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize()
                        .resolve("lab/pcmk-node.sh");
                for (String n : List.of("1", "2")) {
                    Lab.Result r = lab.run(List.of("nsenter", "-t", holder(lab, "node" + n), "-n", "-u", "-m", "--",
                            "setsid", script.toString(), n, lab.runDir().toString(), out.toString()), 60);
                    assertThat(r.code()).as("pcmk-node.sh %s: %s", n, r.output()).isZero();
                }
                steps.add(ms(t0) + " ms: corosync + pacemaker started on both nodes");
                Awaitility.await("Pacemaker probed both groups and found each on its node, unmanaged")
                        .atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).until(() -> {
                            String mon = crmMon(lab, "node1");
                            return GROUPS.stream().allMatch(g -> g.members().stream().allMatch(m -> Pattern.compile(
                                    Pattern.quote(m) + "\\s+\\([^)]*\\):\\s+Started " + g.node() + " \\(unmanaged\\)")
                                    .matcher(mon).find()));
                        });
                steps.add(ms(t0) + " ms: Pacemaker sees both groups running, unmanaged");
                System.out.println(crmMon(lab, "node1"));

                // 3. one group at a time
                for (Grp g : GROUPS) {
                    long since = System.currentTimeMillis() - 1000; // the journal's time, to the ms (same host clock)
                    for (String n : List.of(g.other(), g.node())) {
                        Lab.Result rm = lab.lab("hb", n, "resources", "remove", g.key());
                        assertThat(rm.code()).as("%s: hb resources remove: %s", n, rm.output()).isZero();
                        Lab.Result rl = lab.lab("hb", n, "reload");
                        assertThat(rl.code()).as("%s: hb reload: %s", n, rl.output()).isZero();
                        steps.add(ms(t0) + " ms: " + g.key() + " removed on " + n + ": " + rl.output().strip()
                                .replace('\n', ';'));
                    }
                    // what hb events --kind group-stopped prints, read from the journal file itself (no JVM per poll)
                    Path journal = lab.runDir().resolve(g.node()).resolve("state/events.jsonl");
                    lab.waitUntil(() -> journalMs(journal, "group-stopped", g.key(), since) > 0, Figures.HANG_MS,
                            "jheartbeat stopped " + g.key() + " on " + g.node());
                    long stopping = journalMs(journal, "group-stopping", g.key(), since);
                    long stopped = journalMs(journal, "group-stopped", g.key(), since);
                    steps.add(ms(t0) + " ms: " + g.key() + " stopped by jheartbeat on " + g.node() + " (journal: stopping at "
                            + stopping + ", stopped " + (stopped - stopping) + " ms later)");
                    // --refresh, not --cleanup: Pacemaker 2's cleanup forgets only failed operations, and until the
                    // unmanaged group's 10 s monitor fails the history still says "Started"
                    Lab.Result c = crm(lab, "crm_resource", "--resource", g.cibId(), "--refresh");
                    assertThat(c.code()).as("refresh: %s", c.output()).isZero();
                    Awaitility.await(g.cibId() + " probed again: stopped everywhere").atMost(Figures.HANG)
                            .pollInterval(Duration.ofMillis(200)).until(() -> {
                                String mon = crmMonAll(lab);
                                return g.members().stream().allMatch(mm -> Pattern.compile("(?m)" + Pattern.quote(mm)
                                        + "\\s+\\([^)]*\\):\\s+Stopped \\(unmanaged\\)\\s*$").matcher(mon).find());
                            });
                    Lab.Result m = crm(lab, "crm_resource", "--resource", g.cibId(), "--meta", "--delete-parameter",
                            "is-managed");
                    assertThat(m.code()).as("manage: %s", m.output()).isZero();
                    long managed = System.currentTimeMillis();
                    steps.add(ms(t0) + " ms: " + g.cibId() + " refreshed (Stopped, unmanaged) and managed by Pacemaker, "
                            + (managed - stopped) + " ms after group-stopped");
                    lab.waitUntil(() -> samplers.get(GROUPS.indexOf(g)).samples().stream().anyMatch(x -> x.ms() > managed
                            && x.answeredBy().equals(g.node())) && g.members().stream().allMatch(mm -> startedManaged(crmMon(lab, "node1"),
                            mm, g.node())), Figures.HANG_MS, g.cibId() + " served again, by Pacemaker");
                    long back = samplers.get(GROUPS.indexOf(g)).samples().stream().filter(x -> x.ms() >= managed
                            && x.answered()).mapToLong(ClientSamples.Sample::ms).min().orElse(-1);
                    steps.add(ms(t0) + " ms: " + g.cibId() + " served by Pacemaker on " + g.node() + ": the client's first"
                            + " answer " + (back - managed) + " ms after it was managed");
                }

                // 4. jheartbeat off on both nodes
                for (String n : List.of("node1", "node2")) {
                    assertThat(lab.lab("stop", n).code()).isZero();
                    steps.add(ms(t0) + " ms: jheartbeat stopped on " + n);
                }
                Thread.sleep(3000); // a few more samples with jheartbeat gone
            } finally {
                for (GroupSampler s : samplers) {
                    s.close();
                }
                for (VipWatch w : arp) {
                    w.close();
                }
                listen.close();
                steps.forEach(System.out::println);
                for (String n : List.of("node1", "node2")) { // Pacemaker's log lives on the node's tmpfs: keep a copy
                    lab.run(List.of("nsenter", "-t", holder(lab, n), "-m", "--", "cp", "/var/log/pacemaker/pacemaker.log",
                            lab.runDir().resolve(n).resolve("pcmk/pacemaker.log").toString()), 30);
                }
            }

            String mon = crmMon(lab, "node2");
            System.out.println(mon);
            for (Grp g : GROUPS) {
                for (String m : g.members()) {
                    assertThat(startedManaged(mon, m, g.node())).as("%s started on %s, managed:%n%s", m, g.node(), mon)
                            .isTrue();
                }
            }
            for (String n : List.of("node1", "node2")) {
                Lab.Result st = lab.lab("hb", n, "status");
                assertThat(st.code()).as("no jheartbeat daemon on %s: %s", n, st.output()).isEqualTo(3);
            }
            assertThat(lab.http()).isEqualTo("node1");
            assertThat(http2(lab)).isEqualTo("node2");

            for (int i = 0; i < GROUPS.size(); i++) {
                Grp g = GROUPS.get(i);
                List<ClientSamples.Sample> s = samplers.get(i).samples();
                List<ClientSamples.Outage> outages = ClientSamples.outages(s);
                System.out.printf("%s: %d client samples (%d connected but slower than 0.5 s), outages: %s; ARP probes"
                        + " %d, address probes %d, ARP history %s%n", g.cibId(), s.size(),
                        s.stream().filter(x -> x.served() && !x.answered()).count(), outages, arp.get(i).arpSamples(), arp.get(i).addrSamples(),
                        arp.get(i).arpHistory());
                assertThat(ClientSamples.leadingMisses(s)).as("served when sampling began").isZero();
                assertThat(ClientSamples.twoNodes(s)).as("%s: samples answered by one node with the other in ARP", g.cibId())
                        .isEmpty();
                assertThat(arp.get(i).neverTwo()).as("%s: two nodes (ARP/addresses): %s", g.cibId(), arp.get(i).doubles())
                        .isTrue();
                assertThat(outages).as("%s: exactly one outage, over before the end", g.cibId()).hasSize(1);
                ClientSamples.Outage out1 = outages.get(0);
                assertThat(out1.backMs()).isPresent();
                assertThat(out1.ms().orElseThrow()).as("hang bound").isLessThan(60_000);
                assertThat(s.stream().filter(ClientSamples.Sample::answered).map(ClientSamples.Sample::answeredBy)
                        .distinct().toList()).as("always its own node").containsExactly(g.node());
                Figures.print("pcmk_migration_outage_" + (i + 1) + "_ms", out1.ms().orElseThrow(), "ms",
                        g.cibId() + ": client outage while it moved from jheartbeat to Pacemaker (" + out1.missed()
                                + " samples not served)");
            }
            assertThat(listen.rounds()).isPositive();
            assertThat(listen.doubles()).as("a service port listening on both nodes").isEmpty();
        }
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** Whether crm_mon shows {@code member} Started on {@code node} and not unmanaged ("(Monitoring)" may follow). */
    private static boolean startedManaged(String mon, String member, String node) {
        return Pattern.compile("(?m)" + Pattern.quote(member) + "\\s+\\([^)]*\\):\\s+Started " + node
                + "(\\s*| \\((?![^)]*unmanaged)[^)]*\\))$").matcher(mon).find();
    }

    /**
     * The time (ms since the epoch) of the first journal event of {@code kind} for group {@code key} at or after
     * {@code since} in a node's {@code events.jsonl} (what {@code hb events --kind KIND} prints), or 0.
     */
    private static long journalMs(Path journal, String kind, String key, long since) throws java.io.IOException {
        if (!Files.exists(journal)) {
            return 0;
        }
        Pattern p = Pattern.compile("\"ms\":(\\d+),.*\"kind\":\"" + Pattern.quote(kind) + "\",\"subject\":\""
                + Pattern.quote(key) + "\"");
        for (String line : Files.readAllLines(journal)) {
            java.util.regex.Matcher m = p.matcher(line);
            if (m.find() && Long.parseLong(m.group(1)) >= since) {
                return Long.parseLong(m.group(1));
            }
        }
        return 0;
    }

    private static String http2(Lab lab) throws Exception {
        Lab.Result r = lab.lab("http2");
        return r.code() == 0 ? r.output().trim() : "";
    }

    private static String holder(Lab lab, String node) throws Exception {
        return Files.readString(lab.runDir().resolve(node).resolve("holder.pid")).strip();
    }

    /** A Pacemaker command line tool inside node1. */
    private static Lab.Result crm(Lab lab, String... argv) throws Exception {
        List<String> a = new ArrayList<>(List.of("nsenter", "-t", holder(lab, "node1"), "-n", "-u", "-m", "--"));
        a.addAll(List.of(argv));
        return lab.run(a, 60);
    }

    /** {@code crm_mon -1 --inactive} in node1: inactive resources too ("Stopped (unmanaged)"). */
    private static String crmMonAll(Lab lab) throws Exception {
        return crm(lab, "crm_mon", "-1", "--inactive").output();
    }

    private static String crmMon(Lab lab, String node) {
        try {
            List<String> a = List.of("nsenter", "-t", holder(lab, node), "-n", "-u", "-m", "--", "crm_mon", "-1");
            return lab.run(a, 30).output();
        } catch (Exception x) {
            return "crm_mon failed: " + x;
        }
    }
}
