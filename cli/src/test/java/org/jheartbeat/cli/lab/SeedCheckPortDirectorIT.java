package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.lab.LvsDirectorIT.ms;
import static org.jheartbeat.cli.lab.LvsDirectorIT.recorded;
import static org.jheartbeat.cli.lab.LvsDirectorIT.run;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
 * The seed's own ldirectord.cf, word for word ({@code director/src/test/resources/.../seed-ldirectord-8080.cf}: the
 * proxies on port 8080, {@code checkport=80}, {@code logfile="/var/log/ldirectord.log"}, checkinterval 10,
 * checktimeout 20), run by the director on node1 through the {@code ldirectord} wrapper against its two reals,
 * 198.18.0.21 and .22 in the client namespace, each with a listener on the service port 8080 and one on the check
 * port 80 that writes down every connection it accepts.
 *
 * <p>It shows that the check uses {@code checkport}: the 8080 listeners are never connected to by a check; a real
 * whose 8080 answers but whose 80 does not is taken out; a real whose 80 answers but whose 8080 does not stays in
 * (two further checks of it pass); the first comes back when its 80 does. And that {@code logfile} is honoured: the
 * director runs in a mount namespace whose {@code /var/log} is this test's directory (so the file is written as
 * the seed says, and this machine's /var/log is not touched), and the additions and deletions are in that file.
 *
 * <p>This kernel has no IPVS: the director drives the recording {@code ipvsadm} (as {@link LvsDirectorIT}).
 */
@Tag("root")
class SeedCheckPortDirectorIT {
    static final String VIP = "198.18.0.100:8080";

    static String add(String real) {
        return "ipvsadm -a -t " + VIP + " -x 0 -y 0 -r " + real + ":8080 -g -w 1";
    }

    static String del(String real) {
        return "ipvsadm -d -t " + VIP + " -r " + real + ":8080";
    }

    /** Accepts connections on ADDR:PORT, writes a line per connection to LOG, closes it at once. */
    static final String LISTEN = String.join("\n",
            "import socket, sys",
            "addr, port, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]",
            "s = socket.socket()",
            "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
            "s.bind((addr, port)); s.listen(64)",
            "print('ready', flush=True)",
            "while True:",
            "    c, peer = s.accept()",
            "    with open(log, 'a') as f: f.write(peer[0] + '\\n')",
            "    c.close()", "");

    @Test
    void theCheckUsesCheckportAndTheLogGoesWhereLogfileSays() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces, a mount namespace)");
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        Path jar = Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()));
        Path fixture = root.resolve("director/src/test/resources/org/jheartbeat/director/seed-ldirectord-8080.cf");
        Map<String, Process> listeners = new HashMap<>();
        try (Lab lab = new Lab(Map.of())) {
            String client = lab.namespace("node1").replace("-n1", "-cl");
            String node1 = lab.namespace("node1");
            Path dir = lab.runDir().resolve("seed8080");
            Path bin = Files.createDirectories(dir.resolve("bin"));
            Path varLog = Files.createDirectories(dir.resolve("var-log"));
            Files.copy(root.resolve("director/src/test/resources/org/jheartbeat/director/ipvsadm-recorder"),
                    bin.resolve("ipvsadm"), StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(bin.resolve("ipvsadm"), PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.writeString(dir.resolve("listen.py"), LISTEN);
            for (String rip : List.of("198.18.0.21", "198.18.0.22")) {
                run(List.of("ip", "netns", "exec", client, "ip", "addr", "add", rip + "/24", "dev", "eth0"), Map.of());
                for (int port : List.of(8080, 80)) {
                    listeners.put(rip + ":" + port, listen(client, dir, rip, port));
                }
            }
            Path cfg = dir.resolve("ldirectord.cf");
            Files.copy(fixture, cfg);
            assertThat(Files.readString(cfg)).contains("logfile=\"/var/log/ldirectord.log\"", "checkport=80",
                    "virtual=198.18.0.100:8080");
            Map<String, String> env = new HashMap<>();
            env.put("PATH", bin + ":" + System.getenv("PATH"));
            env.put("IPVSADM_STATE", dir.resolve("ipvs.json").toString());
            env.put("IPVSADM_LOG", dir.resolve("ipvsadm.log").toString());
            env.put("HB", root.resolve("packaging/src/bin/hb").toString());
            env.put("HB_LVS_BACKEND", "ipvs");
            env.put("HB_JAR", jar.toString());
            env.put("LDIRECTORD_PID_DIR", dir.toString());
            env.put("LDIRECTORD_SOCKET_DIR", dir.toString());
            env.put("HB_STATE_DIR", dir.toString()); // the director's event journal, never the host's /var/lib
            String wrapper = root.resolve("packaging/src/bin/ldirectord").toString();

            // node1's network, and a private mount namespace whose /var/log is var-log: the daemon the wrapper
            // starts stays in it, so logfile="/var/log/ldirectord.log" is written as the seed says, here
            long t0 = System.nanoTime();
            LvsDirectorIT.Result start = run(List.of("ip", "netns", "exec", node1, "unshare", "-m", "sh", "-c",
                    "mount --bind \"$0\" /var/log && exec sh \"$1\" \"$2\" start", varLog.toString(), wrapper,
                    cfg.toString()), env);
            assertThat(start.code()).as(start.out()).isZero();
            List<String> expected = new ArrayList<>(List.of("ipvsadm -A -t " + VIP + " -s lc -p 90",
                    add("198.18.0.21"), del("198.18.0.21"), add("198.18.0.22"), del("198.18.0.22")));
            lab.waitUntil(() -> recorded(dir).size() >= 7, 60_000, "the first check pass");
            assertThat(recorded(dir).subList(0, 5)).isEqualTo(expected);
            assertThat(recorded(dir).subList(5, 7)).containsExactlyInAnyOrder(add("198.18.0.21"), add("198.18.0.22"));
            expected.addAll(recorded(dir).subList(5, 7));
            System.out.printf("seed director started, both reals in after %d ms%n", ms(t0));
            assertThat(accepted(dir, "198.18.0.21", 80)).as("checks reach the check port").isPositive();

            // real 1: its service port answers, its check port does not -> taken out
            long down = System.nanoTime();
            stop(listeners.remove("198.18.0.21:80"));
            lab.waitUntil(() -> recorded(dir).size() == 8, 60_000, "198.18.0.21 to be taken out");
            expected.add(del("198.18.0.21"));
            assertThat(recorded(dir)).isEqualTo(expected);
            System.out.printf("check port of real 1 closed (service port open) -> deleted after %d ms"
                    + " (checkinterval 10 s)%n", ms(down));

            // real 2: its check port answers, its service port does not -> stays in over two more checks
            stop(listeners.remove("198.18.0.22:8080"));
            int seen = accepted(dir, "198.18.0.22", 80);
            lab.waitUntil(() -> accepted(dir, "198.18.0.22", 80) >= seen + 2, 60_000,
                    "two checks of 198.18.0.22 on its check port");
            assertThat(recorded(dir)).as("198.18.0.22 is not touched").isEqualTo(expected);

            // real 1's check port answers again -> back in
            listeners.put("198.18.0.21:80", listen(client, dir, "198.18.0.21", 80));
            lab.waitUntil(() -> recorded(dir).size() == 9, 60_000, "198.18.0.21 to come back");
            expected.add(add("198.18.0.21"));
            assertThat(recorded(dir)).isEqualTo(expected);

            // no check ever connected to a service port: every connection there would be written down
            assertThat(accepted(dir, "198.18.0.21", 8080)).isZero();
            assertThat(accepted(dir, "198.18.0.22", 8080)).isZero();

            LvsDirectorIT.Result stop = run(List.of("sh", wrapper, cfg.toString(), "stop"), env);
            assertThat(stop.code()).as(stop.out()).isZero();
            String log = Files.readString(varLog.resolve("ldirectord.log"));
            System.out.print(log);
            assertThat(log).contains("|ldirectord.cf|")
                    .contains("Deleted real server: 198.18.0.21:8080 (" + VIP + ")")
                    .contains("Added real server: 198.18.0.21:8080 (" + VIP + ") (Weight set to 1)");
        } finally {
            for (Process p : listeners.values()) {
                p.destroyForcibly();
            }
        }
    }

    static Process listen(String ns, Path dir, String addr, int port) throws IOException {
        Process p = new ProcessBuilder("ip", "netns", "exec", ns, "python3", dir.resolve("listen.py").toString(), addr,
                Integer.toString(port), dir.resolve("accepted-" + addr + "-" + port).toString())
                .redirectErrorStream(true).start();
        String first = new BufferedReader(new InputStreamReader(p.getInputStream())).readLine();
        assertThat(first).as("listener %s:%d", addr, port).isEqualTo("ready");
        return p;
    }

    static void stop(Process p) throws InterruptedException {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** How many connections the listener on addr:port has accepted so far. */
    static int accepted(Path dir, String addr, int port) throws IOException {
        Path f = dir.resolve("accepted-" + addr + "-" + port);
        return Files.exists(f) ? Files.readAllLines(f).size() : 0;
    }
}
