package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.lab.LvsDirectorIT.ms;
import static org.jheartbeat.cli.lab.LvsDirectorIT.run;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A user-space director pair keeps its persistent clients across a failover: haresources
 * {@code node1 198.18.0.100/24/eth0 ldirectord::CFG}, the virtual {@code rr} with {@code persistent=300},
 * and the template sync on the crossover ({@code syncdaemon = eth1}, {@code syncpeer = 198.18.1.1
 * 198.18.1.2}, the lab's sha1 authkeys). {@code hb lvs syncd} runs on both nodes. Three clients
 * (198.18.0.31–.33) connect through node1 and land on three different reals; once node2's syncd holds their
 * templates, node1 loses power; node2 takes the VIP and starts its director, which takes the templates
 * over; the clients connect again in the reverse order and each is on its real of before. (Without the
 * templates node2's fresh round robin would give the reverse order a rotated assignment: every client would
 * move.) Prints the time for the templates to reach node2's file and the failover time (not asserted).
 */
@Tag("root")
class DirectorPairSyncIT {
    static final String CLIENT_FROM = String.join("\n",
            "import socket, sys",
            "src, host = sys.argv[1], sys.argv[2]",
            "s = socket.create_connection((host, 80), timeout=5, source_address=(src, 0))",
            "s.sendall(b'GET /who HTTP/1.0\\r\\nHost: ' + host.encode() + b'\\r\\n\\r\\n')",
            "data = b''",
            "while True:",
            "    b = s.recv(65536)",
            "    if not b: break",
            "    data += b",
            "print(data.split(b'\\r\\n\\r\\n', 1)[1].decode().strip())", "");

    @Test
    void aPersistentClientKeepsItsRealServerAcrossTheDirectorFailover() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        Path jar = Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()));
        Path dir = Files.createDirectories(root.resolve("cli/target/uslvs-sync").resolve("r" + System.nanoTime()));
        Path hb = dir.resolve("hb");
        Files.writeString(hb, "#!/bin/sh\nexec java -XX:TieredStopAtLevel=1 -cp " + jar + " org.jheartbeat.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(hb, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(dir.resolve("client-from.py"), CLIENT_FROM);
        Path cfg = dir.resolve("ldirectord.cf");
        Map<String, String> env = new HashMap<>();
        env.put("LAB_KEEPALIVE", "500ms");
        env.put("LAB_DEADTIME", "3");
        env.put("LAB_HARESOURCES", "node1 198.18.0.100/24/eth0 ldirectord::" + cfg);
        env.put("HB_JAVA_OPTS", "-Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djheartbeat.ldirectord="
                + root.resolve("packaging/src/bin/ldirectord"));
        env.put("PATH", dir + ":" + System.getenv("PATH"));
        env.put("HB_LVS_BACKEND", "userspace");
        env.put("LDIRECTORD_PID_DIR", "/var/lib/jheartbeat");
        env.put("LDIRECTORD_SOCKET_DIR", "/var/lib/jheartbeat");
        Map<Integer, Process> servers = new HashMap<>();
        try (Lab lab = new Lab(env)) {
            // both nodes' authkeys hold the same key; the file is read where the director runs
            Files.writeString(cfg, "checktimeout=2\ncheckinterval=1\nquiescent=no\nlogfile=\"" + dir.resolve("ld.log")
                    + "\"\nsyncdaemon = eth1\nsyncpeer = 198.18.1.1 198.18.1.2\nsyncauthkeys = "
                    + lab.configDir("node1").resolve("authkeys") + "\n"
                    + "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate\n\treal=198.18.0.22:80 gate\n"
                    + "\treal=198.18.0.23:80 gate\n\tservice=http\n\tprotocol=tcp\n\tchecktype=connect\n"
                    + "\tscheduler=rr\n\tpersistent=300\n");
            String client = lab.namespace("node1").replace("-n1", "-cl");
            UserspaceDirectorIT.startRealServers(client, dir, servers);
            List<String> sources = List.of("198.18.0.31", "198.18.0.32", "198.18.0.33");
            for (String s : sources) {
                run(List.of("ip", "netns", "exec", client, "ip", "addr", "add", s + "/24", "dev", "eth0"), Map.of());
            }
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            for (String node : List.of("node1", "node2")) {
                Lab.Result syncd = lab.lab("exec", node, "sh", "-c", "setsid " + hb + " lvs syncd " + cfg + " >"
                        + dir.resolve("syncd-" + node + ".out") + " 2>&1 </dev/null &");
                assertThat(syncd.code()).as(syncd.output()).isZero();
            }
            List<String> get = List.of("ip", "netns", "exec", client, "curl", "-s", "-m", "1",
                    "http://198.18.0.100/who");
            lab.waitUntil(() -> run(get, Map.of()).out().startsWith("real"), 60_000, "the director on node1");
            Map<String, String> before = new LinkedHashMap<>();
            for (String s : sources) {
                before.put(s, who(client, dir, s));
            }
            System.out.println("through node1: " + before);
            assertThat(before.values()).as("rr spreads three new clients").doesNotHaveDuplicates();

            Path kept = lab.varLibJheartbeat("node2").resolve("lvs-ldirectord.cf-198.18.1.2.templates");
            long t0 = System.nanoTime();
            lab.waitUntil(() -> Files.exists(kept) && sources.stream().allMatch(s -> {
                try {
                    return Files.readString(kept).contains(" " + s + " ");
                } catch (java.io.IOException e) {
                    return false;
                }
            }), 30_000, "node2's syncd to hold the three templates");
            System.out.printf("templates in node2's file %d ms after the last connection:%n%s", ms(t0),
                    Files.readString(kept));

            long off = System.nanoTime();
            assertThat(lab.lab("poweroff", "node1").code()).isZero();
            lab.waitUntil(() -> run(get, Map.of()).out().startsWith("real"), 60_000, "the director on node2");
            System.out.printf("director failover: node1 powered off -> answer through node2 after %d ms%n", ms(off));
            assertThat(lab.holds("node2", "198.18.0.100")).isTrue();
            Map<String, String> after = new LinkedHashMap<>();
            for (String s : List.of(sources.get(2), sources.get(1), sources.get(0))) {
                after.put(s, who(client, dir, s));
            }
            System.out.println("through node2: " + after);
            for (String s : sources) {
                assertThat(after.get(s)).as("client " + s + " after the failover").isEqualTo(before.get(s));
            }
            assertThat(Files.readString(dir.resolve("ld.log"))).contains("Template sync: took over");
        } finally {
            for (Process p : servers.values()) {
                p.destroyForcibly();
            }
            killSyncd(dir);
        }
    }

    private static String who(String clientNs, Path dir, String source) throws Exception {
        LvsDirectorIT.Result r = run(List.of("ip", "netns", "exec", clientNs, "python3",
                dir.resolve("client-from.py").toString(), source, "198.18.0.100"), Map.of());
        assertThat(r.code()).as(r.out()).isZero();
        return r.out().strip();
    }

    /** The syncd processes this test started (their command line names this run's config). */
    private static void killSyncd(Path dir) {
        String cfg = dir.resolve("ldirectord.cf").toString();
        ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains("lvs syncd " + cfg)).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
    }
}
