package org.jheartbeat.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.auth.AuthKey;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.jheartbeat.stonith.fencing.FencingPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** authkeys with ha.cf's media and jheartbeat.yaml's authkeys: section. */
class AuthkeysPolicyTest {
    static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");

    @TempDir
    Path dir;

    private ClusterConfig cluster(ConfigDirBuilder b) {
        b.writeTo(dir);
        return ConfigLoader.load(dir, Optional.of(NodeName.of("node1"))).config().orElseThrow();
    }

    private JheartbeatYaml yaml(AuthkeysSettings keys) {
        return new JheartbeatYaml(dir.resolve(JheartbeatYaml.NAME), Map.of(), OperationTimeouts.NONE,
                FencingPolicy.DEFAULT, Optional.empty(), keys);
    }

    private static List<String> formatted(List<ConfigDiagnostic> ds) {
        return ds.stream().map(ConfigDiagnostic::format).toList();
    }

    @Test
    void crcOnANetworkLinkIsAnErrorUnlessTheLinkIsVouchedForAndSerialNeedsNothing() {
        ClusterConfig crc = cluster(ConfigDirBuilder.validTwoNode().authkeys("auth 1\n1 crc\n"));
        assertThat(formatted(AuthkeysPolicy.check(crc, yaml(AuthkeysSettings.NONE), NOW))).containsExactly(
                dir.resolve("ha.cf") + ":6: the link on eth1 carries messages authenticated with crc (authkeys: auth 1),"
                        + " which anyone who can send on that network can forge; write '1 sha1 KEY' on both nodes"
                        + " (openssl rand -hex 32), or, if eth1 is a crossover cable, list it in jheartbeat.yaml"
                        + " authkeys: crc_links: [eth1]");
        assertThat(AuthkeysPolicy.check(crc, yaml(new AuthkeysSettings(Optional.empty(), Set.of("eth1"))), NOW))
                .isEmpty();
        assertThat(formatted(AuthkeysPolicy.check(crc, yaml(new AuthkeysSettings(Optional.empty(),
                Set.of("eth1", "eth9"))), NOW))).containsExactly(dir.resolve(JheartbeatYaml.NAME) + ":0: warning:"
                + " authkeys: crc_links: eth9 is not the interface of any ha.cf medium; remove it");
        ClusterConfig serial = cluster(ConfigDirBuilder.validTwoNode().authkeys("auth 1\n1 crc\n")
                .haCfReplace("ucast eth1 198.18.1.2", "serial /dev/ttyS0"));
        assertThat(AuthkeysPolicy.check(serial, yaml(AuthkeysSettings.NONE), NOW)).isEmpty();
    }

    @Test
    void otherKeysWarnOutsideAWindowAndAWindowThatEndedOrIsTooLongWarns() {
        ClusterConfig two = cluster(ConfigDirBuilder.validTwoNode().authkeys(
                "auth 1\n1 sha1 0123456789abcdef0123\n2 sha1 abcdef0123456789abcd\n"));
        assertThat(formatted(AuthkeysPolicy.check(two, yaml(AuthkeysSettings.NONE), NOW))).containsExactly(
                dir.resolve("authkeys") + ":0: warning: keys [2] are defined, but only key 1 (auth 1) is accepted:"
                        + " remove them, or during a key roll-over open a window with jheartbeat.yaml authkeys:"
                        + " rollover_until:");
        JheartbeatYaml window = yaml(new AuthkeysSettings(Optional.of(NOW.plusSeconds(3600)), Set.of()));
        assertThat(AuthkeysPolicy.check(AuthkeysPolicy.apply(two, window), window, NOW)).isEmpty();
        assertThat(AuthkeysPolicy.apply(two, window).authKeys().rollingOver(NOW)).isTrue();
        assertThat(formatted(AuthkeysPolicy.check(AuthkeysPolicy.apply(two, window), window,
                NOW.plusSeconds(3600)))).singleElement().asString().contains("rollover_until: 2026-12-06T13:00:00Z"
                + " has passed: only key 1 (auth 1) is accepted; remove the line, and keys [2] from authkeys");
        JheartbeatYaml month = yaml(new AuthkeysSettings(Optional.of(NOW.plusSeconds(30 * 86400)), Set.of()));
        assertThat(formatted(AuthkeysPolicy.check(AuthkeysPolicy.apply(two, month), month, NOW))).singleElement()
                .asString().contains("is more than 7 days away");
    }

    @Test
    void applyLeavesTheKeysAndAddsTheWindow() {
        ClusterConfig c = cluster(ConfigDirBuilder.validTwoNode());
        AuthKeys keys = AuthkeysPolicy.apply(c, yaml(AuthkeysSettings.NONE)).authKeys();
        assertThat(keys).isEqualTo(new AuthKeys(1, Map.of(1, new AuthKey(1, AuthMethod.SHA1,
                "testsecret-0123456".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))));
    }
}
