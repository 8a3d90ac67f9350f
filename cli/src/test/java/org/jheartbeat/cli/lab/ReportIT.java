package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.EventKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code hb report} after a real lab failover and failback: run on node2, it collects node1's part over
 * the lab's ssh (node1 runs {@code hb report --part}); the archive holds both nodes' journals, the merged
 * timeline in order (node2 declares node1 dead, then starts the group, then node1 gets it back) and no
 * key or password of any configuration file (grep of every extracted file). With node1 off, the report
 * says node1 was not collected and still holds node2's part.
 */
@Tag("root")
class ReportIT {
    static final String STONITH_PASSWORD = "Ipmi-S3cret-7781";
    static final String LDIRECTORD_PASSWD = "My5ql-Ch3ck-Pw-42";
    static final String SMTP_PASSWORD = "Smtp-Pa55-w0rd-9";
    static final String REPL_PASSWORD = "Repl-Pw-0x51";

    @Test
    void afterAFailoverTheArchiveHoldsBothNodesEventsInOrderAndNoSecret() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_AUTO_FAILBACK", "on"))) {
            long start = System.currentTimeMillis();
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as("node1 serves\n%s", lab.daemonLog("node1", 40))
                    .isNotNegative();
            LabJournal.await(lab, "node1", EventKind.GROUP_STARTED, FailoverIT.VIP, 1);
            assertThat(lab.lab("poweroff", "node1").code()).isZero();
            assertThat(FailoverIT.waitFor(lab, "node2", Figures.HANG_MS)).as("node2 takes over\n%s",
                    lab.daemonLog("node2", 40)).isNotNegative();
            assertThat(lab.lab("poweron", "node1").code()).isZero();
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as("node1 gets its group back\n%s",
                    lab.daemonLog("node1", 40)).isNotNegative();
            LabJournal.await(lab, "node1", EventKind.GROUP_STARTED, FailoverIT.VIP, 2);

            // secrets in every kind of file the report masks, written after the drill (the daemons read
            // their files at start; the report reads what is there now)
            Path cfg1 = lab.configDir("node1");
            Path cfg2 = lab.configDir("node2");
            String authKey = Files.readString(cfg1.resolve("authkeys")).lines().skip(1).findFirst().orElseThrow()
                    .split(" ")[2];
            for (Path cfg : List.of(cfg1, cfg2)) {
                Files.writeString(cfg.resolve("ha.cf"), "stonith_host * fence_ipmilan 198.18.0.250 623 admin "
                        + STONITH_PASSWORD + "\n", StandardOpenOption.APPEND);
                Files.writeString(cfg.resolve("ldirectord.cf"), "virtual=198.18.0.200:3306\n\treal=198.18.0.3:3306 gate\n"
                        + "\tservice=mysql\n\tlogin=\"check\"\n\tpasswd=\"" + LDIRECTORD_PASSWD + "\"\n");
                Files.writeString(cfg.resolve("jheartbeat.yaml"), "alerts:\n  smtp:\n    host: 198.18.0.25\n"
                        + "    password: " + SMTP_PASSWORD + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                Files.writeString(cfg.resolve("haresources"), "# node1 198.18.0.102 ocf:heartbeat:mysql::replication_passwd="
                        + REPL_PASSWORD + "\n", StandardOpenOption.APPEND);
            }

            Path archive = lab.runDir().resolve("report.tar.gz");
            long t0 = System.nanoTime();
            Lab.Result r = ConfigPushIT.hb(lab, "node2", "report", "--from", "@" + (start - 1000), "--to", "now",
                    "--dest", archive.toString(), "--config-dir", cfg2.toString(), "--state-dir",
                    lab.runDir().resolve("node2/state").toString(), "--peer", "198.18.1.1", "--ssh", lab.sshCommand(),
                    "--remote-hb", "java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar " + ConfigPushIT.jar(),
                    "--remote-config-dir", cfg1.toString(), "--remote-state-dir",
                    lab.runDir().resolve("node1/state").toString());
            Figures.print("report_ms", (System.nanoTime() - t0) / 1_000_000, "ms", "hb report of both nodes over ssh");
            assertThat(r.code()).as(r.output()).isZero();
            assertThat(r.output()).contains("Wrote " + archive).contains(": node2, node1; ");
            Figures.print("report_bytes", Files.size(archive), "bytes", "the archive of a failover and a failback");

            Path x = Files.createDirectories(lab.runDir().resolve("report-x"));
            assertThat(lab.run(List.of("tar", "-xzf", archive.toString(), "-C", x.toString()), 60).code()).isZero();
            Path top = x.resolve("report");
            String summary = Files.readString(top.resolve("summary.txt"));
            System.out.println(summary);
            assertThat(summary).contains("  node2: collected on this node\n")
                    .contains("  node1: collected over ssh 198.18.1.1; its clock is ")
                    .contains("failover: node2 declared node1 dead")
                    .containsPattern("services back on node2 after \\d+ ms \\(\\d+ ms after node1's last beat\\)")
                    .containsPattern("join: node[12] hears node[12] \\(status (up|active)\\)")
                    .containsPattern("services back on node1 after \\d+ ms\n");

            java.util.regex.Matcher back = java.util.regex.Pattern.compile("services back on node2 after (\\d+) ms")
                    .matcher(summary);
            if (back.find()) {
                Figures.print("report_failover_ms", Long.parseLong(back.group(1)), "ms", "node-dead to group-started on"
                        + " node2, as hb report's summary reads it from the journals");
            }
            List<ClusterEvent> node1 = events(top.resolve("node1/events.jsonl"));
            List<ClusterEvent> node2 = events(top.resolve("node2/events.jsonl"));
            assertThat(node1).as("node1's journal").isNotEmpty().allMatch(e -> e.node().equals("node1"));
            assertThat(node2).as("node2's journal").isNotEmpty().allMatch(e -> e.node().equals("node2"));
            // the merged timeline in order: node1 served, node2 declared it dead, node2 started the group,
            // node1 (started again) got it back
            List<String> timeline = summary.substring(summary.indexOf("Timeline (both nodes")).lines().skip(1)
                    .map(String::strip).toList();
            assertThat(timeline).isSortedAccordingTo((a, b) -> a.substring(0, 23).compareTo(b.substring(0, 23)));
            int firstStart1 = indexOf(timeline, "node1", "group-started", 0);
            int dead = indexOf(timeline, "node2", "node-dead", firstStart1);
            int started2 = indexOf(timeline, "node2", "group-started", dead);
            int back1 = indexOf(timeline, "node1", "group-started", started2);
            assertThat(List.of(firstStart1, dead, started2, back1)).as("positions in\n%s", String.join("\n", timeline))
                    .allMatch(i -> i >= 0);
            assertThat(node2.stream().filter(e -> e.kind() == EventKind.NODE_DEAD).findFirst().orElseThrow().subject())
                    .isEqualTo("node1");

            for (String node : List.of("node1", "node2")) {
                for (String f : List.of("config/ha.cf", "config/authkeys", "config/haresources", "config/ldirectord.cf",
                        "config/jheartbeat.yaml", "logs/ha-log", "status.txt", "versions.txt", "packages.txt")) {
                    assertThat(top.resolve(node).resolve(f)).as(node + "/" + f).exists();
                }
            }
            String all = everything(x);
            for (String secret : List.of(authKey, STONITH_PASSWORD, LDIRECTORD_PASSWD, SMTP_PASSWORD, REPL_PASSWORD)) {
                assertThat(all).as("the extracted archive").doesNotContain(secret);
            }
            assertThat(Files.readString(top.resolve("node1/config/authkeys"))).isEqualTo("auth 1\n1 sha1 <masked>\n");

            // the peer off: said in the summary, this node's part collected
            assertThat(lab.lab("poweroff", "node1").code()).isZero();
            Path alone = lab.runDir().resolve("alone.tar.gz");
            Lab.Result off = ConfigPushIT.hb(lab, "node2", "report", "--from", "10m", "--dest", alone.toString(),
                    "--config-dir", cfg2.toString(), "--state-dir", lab.runDir().resolve("node2/state").toString(),
                    "--peer", "198.18.1.1", "--ssh", lab.sshCommand());
            assertThat(off.code()).as(off.output()).isZero();
            assertThat(off.output()).contains("hb: report: the peer (over ssh 198.18.1.1) was not collected: cannot reach"
                    + " 198.18.1.1 over ssh (");
            Path y = Files.createDirectories(lab.runDir().resolve("alone-x"));
            assertThat(lab.run(List.of("tar", "-xzf", alone.toString(), "-C", y.toString()), 60).code()).isZero();
            assertThat(Files.readString(y.resolve("alone/summary.txt"))).contains("  peer: NOT COLLECTED (over ssh"
                    + " 198.18.1.1): cannot reach 198.18.1.1 over ssh");
            assertThat(events(y.resolve("alone/node2/events.jsonl"))).isNotEmpty();
        }
    }

    private static int indexOf(List<String> timeline, String node, String kind, int from) {
        for (int i = Math.max(0, from); i < timeline.size(); i++) {
            String[] w = timeline.get(i).split("\\s+");
            if (w.length > 4 && w[2].equals(node) && w[3].equals(kind)) {
                return i;
            }
        }
        return -1;
    }

    private static List<ClusterEvent> events(Path f) throws Exception {
        List<ClusterEvent> out = new ArrayList<>();
        for (String l : Files.readAllLines(f)) {
            out.add(EventCodec.parse(l).orElseThrow(() -> new AssertionError("not an event: " + l)));
        }
        return out;
    }

    private static String everything(Path root) throws Exception {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                all.append(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        return all.toString();
    }
}
