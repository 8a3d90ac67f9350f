package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The director (ldirectord) in the lab: the director for the seed's ldirectord.cf (a copy with three reals and
 * shorter intervals: checktimeout 2, checkinterval 1) runs on node1 through the {@code ldirectord}
 * wrapper, in front of three real HTTP servers ({@code python3 -m http.server}) bound to
 * 198.18.0.21-23 in the client namespace. Stopping one removes it from the table within
 * checkinterval + checktimeout, starting it adds it back, a changed file is applied by autoreload
 * without touching the unchanged reals, and stop removes what the director added. With
 * {@code emailalert} and {@code smtp}, the deletion and the return of the real are mailed to a real
 * SMTP server (Python's {@code smtpd}, {@code smtp-sink.py} from director's test resources) on
 * 198.18.0.25 in the client namespace.
 *
 * <p>This kernel has no IPVS: the director drives a recording {@code ipvsadm} (installed on PATH
 * for the test, from director's test resources) that checks every command's syntax against
 * ipvsadm's man page, keeps a table, and prints {@code -L -n}/{@code -S -n} from it. The recorded
 * commands are compared with the list ldirectord would run for the same events, written out here
 * from {@code shared/facts/lvs.md} §3.6 (the table reads ldirectord does before each change,
 * {@code -L -n}, are not part of the list: they change nothing).
 */
@Tag("root")
class LvsDirectorIT {
    static final String VIP = "198.18.0.100:80";

    static String add(String real) {
        return "ipvsadm -a -t " + VIP + " -x 0 -y 0 -r " + real + ":80 -g -w 1";
    }

    static String del(String real) {
        return "ipvsadm -d -t " + VIP + " -r " + real + ":80";
    }

    @Test
    void theSeedDirectorFollowsItsRealServersAsLdirectordWould() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        Path jar = Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()));
        Map<Integer, Process> servers = new HashMap<>();
        try (Lab lab = new Lab(Map.of())) {
            String client = lab.namespace("node1").replace("-n1", "-cl");
            String node1 = lab.namespace("node1");
            Path dir = lab.runDir().resolve("lvs");
            Path bin = Files.createDirectories(dir.resolve("bin"));
            Files.copy(root.resolve("director/src/test/resources/org/jheartbeat/director/ipvsadm-recorder"),
                    bin.resolve("ipvsadm"), StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(bin.resolve("ipvsadm"), PosixFilePermissions.fromString("rwxr-xr-x"));
            for (int i = 1; i <= 3; i++) {
                run(List.of("ip", "netns", "exec", client, "ip", "addr", "add", "198.18.0.2" + i + "/24", "dev",
                        "eth0"), Map.of());
                servers.put(i, httpServer(client, i, dir));
            }
            run(List.of("ip", "netns", "exec", client, "ip", "addr", "add", "198.18.0.25/24", "dev", "eth0"), Map.of());
            Path mail = Files.createDirectories(dir.resolve("mail"));
            Process smtp = new ProcessBuilder("ip", "netns", "exec", client, "python3", "-W", "ignore",
                    root.resolve("director/src/test/resources/org/jheartbeat/director/alert/smtp-sink.py").toString(),
                    "2525", mail.toString(), "accept", "198.18.0.25").redirectErrorStream(true).start();
            servers.put(0, smtp);
            assertThat(new java.io.BufferedReader(new java.io.InputStreamReader(smtp.getInputStream())).readLine())
                    .isEqualTo("ready");
            Path cfg = dir.resolve("ldirectord.cf");
            Files.writeString(cfg, config(dir, ""));
            Map<String, String> env = new HashMap<>();
            env.put("PATH", bin + ":" + System.getenv("PATH"));
            env.put("IPVSADM_STATE", dir.resolve("ipvs.json").toString());
            env.put("IPVSADM_LOG", dir.resolve("ipvsadm.log").toString());
            env.put("HB", root.resolve("packaging/src/bin/hb").toString());
            env.put("HB_LVS_BACKEND", "ipvs"); // the recording ipvsadm: this kernel has no IPVS, auto would choose user space
            env.put("HB_JAR", jar.toString());
            env.put("LDIRECTORD_PID_DIR", dir.toString());
            env.put("LDIRECTORD_SOCKET_DIR", dir.toString());
            env.put("HB_STATE_DIR", dir.toString()); // the director's event journal
            String wrapper = root.resolve("packaging/src/bin/ldirectord").toString();
            Path socket = dir.resolve("lvs-ldirectord.cf.sock");

            long t0 = System.nanoTime();
            Result start = run(List.of("ip", "netns", "exec", node1, "sh", wrapper, cfg.toString(), "start"), env);
            assertThat(start.code).as(start.out).isZero();
            System.out.printf("ldirectord start (check + JVM + start sequence) took %d ms%n", ms(t0));
            Result status = run(List.of("sh", wrapper, cfg.toString(), "status"), env);
            assertThat(status.code).isZero();
            assertThat(status.out).contains("running with pid");
            // as the haresources resource ldirectord::ldirectord.cf, Heartbeat reads this output: running
            assertThat(org.jheartbeat.resources.script.StatusText.saysRunning(status.out)).isTrue();

            // ldirectord's start over an empty table, then one pass of checks bringing all three up
            List<String> expected = new ArrayList<>(List.of("ipvsadm -A -t " + VIP + " -s lc -p 90",
                    add("198.18.0.21"), del("198.18.0.21"), add("198.18.0.22"), del("198.18.0.22"),
                    add("198.18.0.23"), del("198.18.0.23")));
            List<String> firstPass = List.of(add("198.18.0.21"), add("198.18.0.22"), add("198.18.0.23"));
            lab.waitUntil(() -> recorded(dir).size() >= 10, 30_000, "the first check pass");
            assertThat(recorded(dir).subList(0, 7)).isEqualTo(expected);
            assertThat(recorded(dir).subList(7, 10)).containsExactlyInAnyOrderElementsOf(firstPass);
            expected.addAll(recorded(dir).subList(7, 10));

            // hb lvs status asks the running director: ipvsadm -L -n's layout, byte for byte
            Result listing = run(List.of("java", "-jar", jar.toString(), "lvs", "status", "--socket",
                    socket.toString()), env);
            assertThat(listing.code).as(listing.out).isZero();
            assertThat(listing.out).isEqualTo("IP Virtual Server version 1.2.1 (size=4096)\n"
                    + "Prot LocalAddress:Port Scheduler Flags\n"
                    + "  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n"
                    + "TCP  198.18.0.100:80 lc persistent 90\n"
                    + "  -> 198.18.0.21:80               Route   1      0          0         \n"
                    + "  -> 198.18.0.22:80               Route   1      0          0         \n"
                    + "  -> 198.18.0.23:80               Route   1      0          0         \n");

            // real 2 stops: deleted within checkinterval + checktimeout (3 s; measured, bound only for hangs)
            long down = System.nanoTime();
            servers.remove(2).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            lab.waitUntil(() -> recorded(dir).contains(del("198.18.0.22")) && recorded(dir).size() == 11, 30_000,
                    "198.18.0.22 to be deleted");
            System.out.printf("real server stopped -> deleted from the table after %d ms (checkinterval 1 s +"
                    + " checktimeout 2 s = 3000 ms)%n", ms(down));
            expected.add(del("198.18.0.22"));
            long up = System.nanoTime();
            servers.put(2, httpServer(client, 2, dir));
            lab.waitUntil(() -> recorded(dir).size() == 12, 30_000, "198.18.0.22 to be added back");
            System.out.printf("real server started -> added back after %d ms%n", ms(up));
            expected.add(add("198.18.0.22"));
            assertThat(recorded(dir)).isEqualTo(expected);
            lab.waitUntil(() -> subjects(mail).contains("Deleted real server: 198.18.0.22:80 (" + VIP + ")")
                    && subjects(mail).stream().filter(s -> s.startsWith("Added real server: 198.18.0.22:80")).count()
                    == 2, 30_000, "the alerts of 198.18.0.22");
            System.out.printf("real server stopped -> stop and return mailed after %d ms (smtp 198.18.0.25:2525)%n",
                    ms(down));

            // autoreload: real 3's weight changes; reals 1 and 2 and the service are not touched
            Files.writeString(cfg, config(dir, " 2"));
            lab.waitUntil(() -> recorded(dir).size() == 13, 30_000, "the autoreload of the changed file");
            expected.add("ipvsadm -e -t " + VIP + " -x 0 -y 0 -r 198.18.0.23:80 -g -w 2");
            assertThat(recorded(dir)).isEqualTo(expected);
            Result reload = run(List.of("sh", wrapper, cfg.toString(), "reload"), env);
            assertThat(reload.code).as(reload.out).isZero();
            // a broken file is refused at file:line (exit 2) and the running config is kept
            Files.writeString(cfg, config(dir, " heavy"));
            Result refused = run(List.of("sh", wrapper, cfg.toString(), "reload"), env);
            assertThat(refused.code).as(refused.out).isEqualTo(2);
            assertThat(refused.out).contains(cfg + ":12: real: unexpected 'heavy'");
            Files.writeString(cfg, config(dir, " 2"));
            Result stats = run(List.of("java", "-jar", jar.toString(), "lvs", "status", "--stats", "--socket",
                    socket.toString()), env);
            assertThat(stats.out).isEqualTo(run(List.of(bin.resolve("ipvsadm").toString(), "-L", "-n", "--stats"),
                    env).out);
            assertThat(recorded(dir)).isEqualTo(expected);

            // stop: cleanstop deletes the reals it brought up, then the service
            Result stop = run(List.of("sh", wrapper, cfg.toString(), "stop"), env);
            assertThat(stop.code).as(stop.out).isZero();
            assertThat(org.jheartbeat.resources.script.StatusText.saysRunning(run(List.of("sh", wrapper,
                    cfg.toString(), "status"), env).out)).isFalse();
            expected.addAll(List.of(del("198.18.0.21"), del("198.18.0.22"), del("198.18.0.23"),
                    "ipvsadm -D -t " + VIP));
            assertThat(recorded(dir)).isEqualTo(expected);
            assertThat(run(List.of("sh", wrapper, cfg.toString(), "status"), env).code).isEqualTo(3);
            String log = Files.readString(dir.resolve("ldirectord.log"));
            assertThat(log).contains("|ldirectord.cf|").contains("Deleted real server: 198.18.0.22:80 (" + VIP + ")")
                    .contains("Added real server: 198.18.0.22:80 (" + VIP + ") (Weight set to 1)");
            // its journal, beside where a cluster daemon's would be: real 2 down, then up again
            List<org.jheartbeat.core.journal.ClusterEvent> real2 = org.jheartbeat.core.journal.JournalFiles.read(dir,
                    org.jheartbeat.core.journal.JournalFiles.director("ldirectord.cf"), 0, 100).stream()
                    .filter(e -> e.subject().equals(VIP + "/198.18.0.22:80")).toList();
            assertThat(real2).extracting(org.jheartbeat.core.journal.ClusterEvent::kind).as("%s", real2)
                    .containsSubsequence(org.jheartbeat.core.journal.EventKind.REAL_DOWN,
                            org.jheartbeat.core.journal.EventKind.REAL_UP);
        } finally {
            for (Process p : servers.values()) {
                p.destroyForcibly();
            }
        }
    }

    /** The subjects of the mails the SMTP server received. */
    static List<String> subjects(Path mail) throws IOException {
        List<String> out = new ArrayList<>();
        try (var files = Files.list(mail)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".msg")).toList()) {
                Files.readAllLines(p).stream().filter(l -> l.startsWith("Subject: ")).findFirst()
                        .ifPresent(l -> out.add(l.substring("Subject: ".length())));
            }
        }
        return out;
    }

    /** The seed's config with three reals and shorter intervals; {@code weight3} is appended to real 3. */
    static String config(Path dir, String weight3) {
        return "checktimeout=2\ncheckinterval=1\nautoreload=yes\nquiescent=no\nlogfile=\""
                + dir.resolve("ldirectord.log") + "\"\n"
                + "emailalert=ops@example.org\nemailalertstatus=running\nsmtp=198.18.0.25:2525\n"
                + "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate\n\treal=198.18.0.22:80 gate\n"
                + "\treal=198.18.0.23:80 gate" + weight3 + "\n\tservice=http\n\tscheduler=lc\n\tpersistent=90\n"
                + "\tprotocol=tcp\n\tchecktype=connect\n";
    }

    static Process httpServer(String ns, int i, Path dir) throws IOException {
        return new ProcessBuilder("ip", "netns", "exec", ns, "python3", "-m", "http.server", "80", "--bind",
                "198.18.0.2" + i, "--directory", dir.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("http" + i + ".out").toFile()).start();
    }

    static List<String> recorded(Path dir) throws IOException {
        Path log = dir.resolve("ipvsadm.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    record Result(int code, String out) {
    }

    static Result run(List<String> argv, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(argv + " did not finish within 120 s");
        }
        return new Result(p.exitValue(), new String(out, java.nio.charset.StandardCharsets.UTF_8));
    }
}
