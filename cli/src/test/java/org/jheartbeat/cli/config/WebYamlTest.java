package org.jheartbeat.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebYamlTest {
    private static final Optional<ClusterConfig> CLUSTER = Optional.of(
            new TwoNodeHarness(TwoNodeHarness.activeActive(), org.jheartbeat.core.config.FailbackPolicy.ON, 200).config());

    private static WebYaml load(Path dir, String text) throws UserException, java.io.IOException {
        Files.writeString(dir.resolve("jheartbeat.yaml"), text);
        return WebYaml.load(dir, CLUSTER);
    }

    @Test
    void withoutASectionTheConsoleListensOnLoopback(@TempDir Path dir) throws Exception {
        WebYaml w = load(dir, "control:\n  admin_group: haadmin\n");
        String node = CLUSTER.get().nodes().get(0).value();
        assertThat(w.listen(NodeName.of(node))).isEqualTo(WebYaml.DEFAULT_LISTEN);
        assertThat(w.tls()).isEmpty();
        // the default follows the configuration directory (--config-dir), not the host's /etc/ha.d
        assertThat(w.usersFile()).isEqualTo(dir.resolve("web-users"));
    }

    @Test
    void withoutJheartbeatYamlTheUsersFileIsInTheConfigDir(@TempDir Path dir) throws Exception {
        assertThat(WebYaml.load(dir, CLUSTER).usersFile()).isEqualTo(dir.resolve("web-users"));
        assertThat(load(dir, "web:\n  users_file: /srv/console-users\n").usersFile())
                .isEqualTo(Path.of("/srv/console-users"));
    }

    @Test
    void perNodeListenAndTlsFilesAreRead(@TempDir Path dir) throws Exception {
        String node = CLUSTER.get().nodes().get(0).value();
        WebYaml w = load(dir, "web:\n  listen:\n    " + node + ": 192.168.1.1:8443\n  tls_cert_file: /etc/ha.d/web.crt\n"
                + "  tls_key_file: /etc/ha.d/web.key\n  users_file: /etc/ha.d/console-users\n");
        assertThat(w.listen(NodeName.of(node))).isEqualTo(new InetSocketAddress("192.168.1.1", 8443));
        assertThat(w.tls().get().certFile()).isEqualTo(Path.of("/etc/ha.d/web.crt"));
        assertThat(w.usersFile()).isEqualTo(Path.of("/etc/ha.d/console-users"));
    }

    @Test
    void aNonLoopbackAddressWithoutTlsIsRefusedWithItsLine(@TempDir Path dir) {
        String node = CLUSTER.get().nodes().get(0).value();
        assertThatThrownBy(() -> load(dir, "web:\n  listen:\n    " + node + ": 192.168.1.1:8480\n"))
                .isInstanceOf(UserException.class)
                .hasMessageContaining("jheartbeat.yaml:3: web: listen: " + node + ": 192.168.1.1 is not a loopback"
                        + " address and the console has no TLS")
                .hasMessageContaining("tls_cert_file")
                // where the package's postinst makes the self-signed pair
                .hasMessageContaining("the .deb makes a self-signed pair in /var/lib/jheartbeat/web.crt and web.key");
        // the daemon's own check (hb config check) reports it too
        assertThatThrownBy(() -> JheartbeatYaml.parse("web:\n  listen:\n    " + node + ": 10.0.0.1:8480\n",
                Path.of("/etc/ha.d/jheartbeat.yaml"), CLUSTER)).hasMessageContaining("/etc/ha.d/jheartbeat.yaml:3: web:");
    }

    @Test
    void unknownKeysAndAHalfTlsPairAreRefused(@TempDir Path dir) {
        assertThatThrownBy(() -> load(dir, "web:\n  lisen: x\n  tls_cert_file: /etc/ha.d/web.crt\n"))
                .hasMessageContaining(":2: web: unknown key [lisen]; did you mean 'listen'?")
                .hasMessageContaining(":3: web: tls_cert_file: needs tls_key_file: too");
    }
}
