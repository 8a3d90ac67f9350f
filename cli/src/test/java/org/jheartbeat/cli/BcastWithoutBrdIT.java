package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose heartbeat interface got its address without a broadcast address ({@code ip addr add
 * 198.18.30.1/24 dev eth0}, no {@code brd +}), in a network namespace of its own: {@code bcast eth0}
 * passes {@code hb config check} and the daemon starts on it, sending to the subnet's broadcast
 * 198.18.30.255, which the kernel delivers on that interface all the same; and the daemon's configuration
 * warnings reach its log file. Bounds only catch hangs.
 */
@Tag("root")
class BcastWithoutBrdIT {
    private static final String NS = "jhb-brd-" + ProcessHandle.current().pid();

    @TempDir
    Path dir;

    private Path jar;

    @BeforeEach
    void namespace() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root");
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        jar = Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()));
        assumeTrue(Files.exists(jar), "hb.jar is built by the package phase");
        sh("ip", "netns", "add", NS);
        sh("ip", "-n", NS, "link", "set", "lo", "up");
        sh("ip", "-n", NS, "link", "add", "eth0", "type", "veth", "peer", "name", "eth0p");
        sh("ip", "-n", NS, "addr", "add", "198.18.30.1/24", "dev", "eth0"); // no "brd +": no broadcast address
        sh("ip", "-n", NS, "link", "set", "eth0", "up");
        sh("ip", "-n", NS, "link", "set", "eth0p", "up");
        assertThat(sh("ip", "-n", NS, "-4", "addr", "show", "eth0")).contains("inet 198.18.30.1/24 scope")
                .doesNotContain("brd 198.18.30.255");
    }

    @AfterEach
    void removeNamespace() throws Exception {
        new ProcessBuilder("ip", "netns", "del", NS).start().waitFor(30, TimeUnit.SECONDS);
    }

    /** A node1 config with {@code extra} appended to ha.cf, logging to DIR/ha-log only. */
    Path config(String extra) throws IOException {
        Path cfg = Files.createDirectories(dir.resolve("cfg"));
        Files.writeString(cfg.resolve("ha.cf"), "logfile " + dir.resolve("ha-log") + "\nlogfacility none\n"
                + "keepalive 1\ndeadtime 10\ninitdead 20\nbcast eth0\nauto_failback on\nnode node1\nnode node2\n" + extra);
        Path keys = Files.writeString(cfg.resolve("authkeys"), "auth 1\n1 sha1 a-long-test-secret-0123456789\n");
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
        Files.writeString(cfg.resolve("haresources"), "");
        return cfg;
    }

    List<String> hb(String... args) {
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", NS, "java", "-XX:TieredStopAtLevel=1",
                "-Djheartbeat.realtime=off", "-jar", jar.toString()));
        argv.addAll(List.of(args));
        return argv;
    }

    @Test
    void bcastOnAnAddressWithoutBroadcastPassesTheCheckAndTheDaemonSendsToTheSubnetBroadcast() throws Exception {
        Path cfg = config("");
        Process check = new ProcessBuilder(hb("config", "check", "--config-dir", cfg.toString(), "--node-name",
                "node1", "--state-dir", dir.resolve("state").toString())).redirectErrorStream(true).start();
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
        System.out.print(out);
        assertThat(check.exitValue()).as(out).isZero();
        assertThat(out).doesNotContain("broadcast").doesNotContain("reached through another interface");

        String log = runDaemonUntil(cfg, "bcast: started on port 694 interface eth0 to 198.18.30.255 (local address"
                + " 198.18.30.1)");
        assertThat(log).doesNotContain("cannot start");
    }

    /**
     * A configuration warning the daemon meets at start (an ha.cf directive jheartbeat does not implement) reaches
     * its log file (under systemd, where an admin reads ha-log, standard error goes elsewhere), and is printed on
     * standard error once.
     */
    @Test
    void aConfigurationWarningAtStartReachesTheLogFile() throws Exception {
        Path cfg = config("hopfudge 2\n");
        String warning = cfg.resolve("ha.cf") + ":10: warning: directive 'hopfudge' has no effect in"
                + " jheartbeat; line ignored";
        String log = runDaemonUntil(cfg, "bcast: started on port 694");
        assertThat(log).contains("WARN: " + warning);
        String out = Files.readString(dir.resolve("daemon.out"));
        assertThat(out.split(java.util.regex.Pattern.quote(warning), -1)).as(out).hasSize(2);
    }

    /**
     * Starts the daemon as node1 in the namespace, waits until its log file holds {@code line}, stops it (SIGTERM)
     * and returns the log.
     */
    String runDaemonUntil(Path cfg, String line) throws Exception {
        Path out = dir.resolve("daemon.out");
        Process d = new ProcessBuilder(hb("daemon", "--config-dir", cfg.toString(), "--state-dir",
                dir.resolve("state").toString(), "--node-name", "node1")).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        Path log = dir.resolve("ha-log");
        try {
            long until = System.nanoTime() + 90_000_000_000L; // a hang bound only
            while (!(Files.exists(log) && Files.readString(log).contains(line))) {
                assertThat(d.isAlive()).as("the daemon exited: " + Files.readString(out)).isTrue();
                assertThat(System.nanoTime()).as("'" + line + "' in the log; daemon output: " + Files.readString(out))
                        .isLessThan(until);
                Thread.sleep(200);
            }
            return Files.readString(log);
        } finally {
            d.destroy();
            if (!d.waitFor(60, TimeUnit.SECONDS)) {
                d.destroyForcibly();
            }
        }
    }

    static String sh(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", argv) + ": " + out).isZero();
        return out;
    }
}
