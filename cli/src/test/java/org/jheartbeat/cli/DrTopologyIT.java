package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.command.DrTopologyProbe;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LVS-DR topology warnings with the real {@code ip} in a network namespace this test makes: a veth pair
 * v0 (198.18.7.1/24, holding the VIP 198.18.7.100) and v1 (198.18.8.1/24), a default route via 198.18.7.254 and a
 * host route to 198.18.7.50 through it. {@code hb lvs check} run inside the namespace warns, at each real's line,
 * for the gate reals LVS-DR cannot reach as it needs, and for none of the others.
 */
@Tag("root")
class DrTopologyIT {
    @TempDir
    Path dir;

    private final String ns = "lvsdr" + ProcessHandle.current().pid();

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    static String sh(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("%s hangs", List.of(argv)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", List.of(argv), out).isZero();
        return out;
    }

    @BeforeEach
    void namespace() throws Exception {
        assumeTrue(isRoot(), "network namespaces need root");
        sh("ip", "netns", "add", ns);
        sh("ip", "-n", ns, "link", "set", "lo", "up");
        sh("ip", "-n", ns, "link", "add", "v0", "type", "veth", "peer", "name", "v1");
        sh("ip", "-n", ns, "addr", "add", "198.18.7.1/24", "dev", "v0");
        sh("ip", "-n", ns, "addr", "add", "198.18.7.100/24", "dev", "v0");
        sh("ip", "-n", ns, "addr", "add", "198.18.8.1/24", "dev", "v1");
        sh("ip", "-n", ns, "link", "set", "v0", "up");
        sh("ip", "-n", ns, "link", "set", "v1", "up");
        sh("ip", "-n", ns, "route", "add", "default", "via", "198.18.7.254");
        sh("ip", "-n", ns, "route", "add", "198.18.7.50/32", "via", "198.18.7.254");
    }

    @AfterEach
    void removeNamespace() throws Exception {
        if (isRoot()) {
            new ProcessBuilder("ip", "netns", "del", ns).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    static final String CONFIG = "checktimeout=3\nlogfile=\"local0\"\n"
            + "virtual=198.18.7.100:80\n"
            + "    real=198.18.7.21:80 gate\n"        // 4: on the VIP's segment
            + "    real=198.18.8.21:80 gate\n"        // 5: on v1's segment, the VIP is on v0
            + "    real=198.19.1.21:80 gate\n"        // 6: through the default gateway
            + "    real=198.18.7.50:80 gate\n"        // 7: in v0's subnet, routed through the gateway
            + "    real=198.18.7.1:80 gate\n"         // 8: this director (the kernel's Local)
            + "    real=198.19.1.22:8080 masq\n"      // 9: NAT may be anywhere routed
            + "    real=198.19.1.23:80 ipip\n"        // 10: so may a tunnel
            + "    service=http\n    checktype=connect\n";

    @Test
    void theGateRealsOffTheVipsSegmentAreWarnedAtTheirLines() throws Exception {
        Path f = Files.writeString(dir.resolve("ldirectord.cf"), CONFIG);
        LdirectordConfig c = new LdirectordParser().parse(f).config().orElseThrow();
        List<String> w = new DrTopologyProbe(List.of("ip", "netns", "exec", ns)).warnings(c).stream()
                .map(ConfigDiagnostic::format).toList();
        w.forEach(System.out::println);
        assertThat(w).hasSize(3);
        assertThat(w.get(0)).startsWith(f + ":5: warning: real 198.18.8.21:80 (gate: LVS-DR) is in 198.18.8.1/24 on v1"
                + " but the VIP 198.18.7.100 on v0");
        assertThat(w.get(1)).startsWith(f + ":6: warning: real 198.19.1.21:80 (gate: LVS-DR) is in none of this"
                + " director's directly connected subnets (").contains("198.18.7.1/24 on v0", "198.18.8.1/24 on v1")
                .contains("through gateway 198.18.7.254 on v0").contains("the VIP 198.18.7.100 on v0");
        assertThat(w.get(2)).startsWith(f + ":7: warning: real 198.18.7.50:80 (gate: LVS-DR) is in 198.18.7.1/24 on v0"
                + " but this director's route to it goes through gateway 198.18.7.254 on v0");

        // without a default route the far real has no route at all
        sh("ip", "-n", ns, "route", "del", "default");
        List<String> none = new DrTopologyProbe(List.of("ip", "netns", "exec", ns)).warnings(c).stream()
                .map(ConfigDiagnostic::format).filter(s -> s.contains(":6: ")).toList();
        assertThat(none).singleElement().asString().contains("this director has no route to it");
    }

    @Test
    void hbLvsCheckInTheNamespacePrintsThemAndStillAcceptsTheFile() throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        Path jar = Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()));
        assumeTrue(Files.exists(jar), "hb.jar is built by the package phase");
        Path f = Files.writeString(dir.resolve("ldirectord.cf"), CONFIG);
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", ns, "java", "-XX:TieredStopAtLevel=1",
                "-jar", jar.toString(), "lvs", "check", f.toString()));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        System.out.print(out);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.lines().filter(l -> l.contains(": warning: real "))).hasSize(3);
        assertThat(out).contains(f + ":5: warning: ", f + ":6: warning: ", f + ":7: warning: ")
                .contains(f + ": configuration OK (1 virtual service(s), 7 real server(s)");
        Process q = new ProcessBuilder("ip", "netns", "exec", ns, "java", "-XX:TieredStopAtLevel=1", "-jar",
                jar.toString(), "lvs", "check", "--no-topology", f.toString()).redirectErrorStream(true).start();
        String quiet = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(q.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(quiet).doesNotContain("warning");
    }

    @Test
    void theDirectorsStartWarnsOnItsStandardErrorAndInItsLog() throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        Path jar = Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()));
        assumeTrue(Files.exists(jar), "hb.jar is built by the package phase");
        Path recorder = dir.resolve("ipvsadm");
        Files.copy(root.resolve("director/src/test/resources/org/jheartbeat/director/ipvsadm-recorder"), recorder);
        recorder.toFile().setExecutable(true);
        Path f = Files.writeString(dir.resolve("ldirectord.cf"), CONFIG.replace("logfile=\"local0\"",
                "logfile=\"" + dir.resolve("ldirectord.log") + "\""));
        ProcessBuilder pb = new ProcessBuilder("ip", "netns", "exec", ns, "java", "-XX:TieredStopAtLevel=1", "-jar",
                jar.toString(), "lvs", "daemon", "--backend", "ipvs", "--ipvsadm", recorder.toString(), "--socket",
                dir.resolve("lvs.sock").toString(), f.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("daemon.out").toFile());
        pb.environment().put("IPVSADM_STATE", dir.resolve("ipvs.json").toString());
        pb.environment().put("IPVSADM_LOG", dir.resolve("ipvsadm.log").toString());
        Process d = pb.start();
        try {
            long until = System.nanoTime() + 60_000_000_000L; // a hang bound only
            Path log = dir.resolve("ldirectord.log");
            while (!(Files.exists(log) && Files.readString(log).contains(":7: warning: real 198.18.7.50:80"))) {
                assertThat(d.isAlive()).as(Files.readString(dir.resolve("daemon.out"))).isTrue();
                assertThat(System.nanoTime()).as("the warnings in the director's log").isLessThan(until);
                Thread.sleep(200);
            }
            String logged = Files.readString(log);
            assertThat(logged).contains("|ldirectord.cf|", ":5: warning: real 198.18.8.21:80 (gate: LVS-DR)",
                    ":6: warning: real 198.19.1.21:80 (gate: LVS-DR)");
            assertThat(Files.readString(dir.resolve("daemon.out"))).contains(f + ":6: warning: real 198.19.1.21:80");
        } finally {
            d.destroy();
            if (!d.waitFor(30, TimeUnit.SECONDS)) {
                d.destroyForcibly();
            }
        }
    }
}
