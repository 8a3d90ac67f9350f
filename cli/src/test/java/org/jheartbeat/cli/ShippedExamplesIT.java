package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped examples (ha.cf.example, haresources.example, authkeys.example, installed as
 * /usr/share/doc/jheartbeat/examples) pass {@code hb config check} on each node of the pair they
 * describe: a network namespace per node with its eth0 (198.18.0.x/24) and eth1 (198.18.1.x/24)
 * crossover, on this Debian 12 machine with the services scripts/setup.sh installs (MariaDB, Apache,
 * ProFTPD, Tomcat 10, Exim, Dovecot, Samba, spamd), as an admin copying them would run it (with a key
 * of their own in authkeys, as docs/install.md says: the example's key is refused).
 */
@Tag("root")
class ShippedExamplesIT {
    private static final String PREFIX = "jhb-ex-" + ProcessHandle.current().pid() + "-";

    @TempDir
    Path dir;

    @AfterEach
    void removeNamespaces() throws Exception {
        for (int n = 1; n <= 2; n++) {
            new ProcessBuilder("ip", "netns", "del", PREFIX + n).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theExamplesPassTheCheckOnBothNodes() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root");
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        Path jar = Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()));
        assumeTrue(Files.exists(jar), "hb.jar is built by the package phase");
        Path cfg = Files.createDirectories(dir.resolve("ha.d"));
        for (String f : new String[] {"ha.cf", "haresources", "authkeys"}) {
            Files.copy(root.resolve(f + ".example"), cfg.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        // as docs/install.md says: "put a long random key in it" (the example's own key is refused)
        byte[] random = new byte[16];
        new java.security.SecureRandom().nextBytes(random);
        String key = java.util.HexFormat.of().formatHex(random);
        Files.writeString(cfg.resolve("authkeys"), Files.readString(cfg.resolve("authkeys"))
                .replace("change-this-to-a-long-random-secret", key));
        Files.setPosixFilePermissions(cfg.resolve("authkeys"), PosixFilePermissions.fromString("rw-------"));
        for (int n = 1; n <= 2; n++) {
            String ns = PREFIX + n;
            BcastWithoutBrdIT.sh("ip", "netns", "add", ns);
            BcastWithoutBrdIT.sh("ip", "-n", ns, "link", "set", "lo", "up");
            for (int i = 0; i <= 1; i++) {
                BcastWithoutBrdIT.sh("ip", "-n", ns, "link", "add", "eth" + i, "type", "veth", "peer", "name",
                        "peer" + i);
                BcastWithoutBrdIT.sh("ip", "-n", ns, "addr", "add", "198.18." + i + "." + n + "/24", "brd", "+",
                        "dev", "eth" + i);
                BcastWithoutBrdIT.sh("ip", "-n", ns, "link", "set", "eth" + i, "up");
                BcastWithoutBrdIT.sh("ip", "-n", ns, "link", "set", "peer" + i, "up");
            }
            Process p = new ProcessBuilder("ip", "netns", "exec", ns, "java", "-XX:TieredStopAtLevel=1", "-jar",
                    jar.toString(), "config", "check", "--config-dir", cfg.toString(), "--node-name", "node" + n,
                    "--state-dir", dir.resolve("state").toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            System.out.print("node" + n + ":\n" + out);
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).doesNotContain(": error").endsWith(cfg + ": configuration OK\n");
        }
    }
}
