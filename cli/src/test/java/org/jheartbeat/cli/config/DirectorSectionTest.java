package org.jheartbeat.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jheartbeat.yaml {@code director: metrics: listen:}: one error per mistake at its line, and what hb lvs daemon reads. */
class DirectorSectionTest {
    private static final Path FILE = Path.of("/etc/ha.d/jheartbeat.yaml");
    private static final Optional<ClusterConfig> CLUSTER = Optional.of(
            new TwoNodeHarness(TwoNodeHarness.activeActive(), org.jheartbeat.core.config.FailbackPolicy.ON, 200).config());
    @TempDir
    Path dir;

    private static String error(String text) {
        try {
            JheartbeatYaml.parse(text, FILE, CLUSTER);
        } catch (UserException e) {
            assertThat(e.exitCode()).isEqualTo(2);
            return e.getMessage();
        }
        throw new AssertionError("no error for:\n" + text);
    }

    @Test
    void eachMistakeIsOneLineAtItsPlace() {
        assertThat(error("director:\n  metric:\n    listen:\n      node1: 127.0.0.1:9811\n")).isEqualTo(FILE
                + ":2: director: unknown key [metric]; did you mean 'metrics'? known: metrics");
        assertThat(error("director:\n  metrics:\n    listen:\n      nodex: 127.0.0.1:9811\n")).startsWith(FILE
                + ":4: director: metrics: listen: [nodex] is not a node of ha.cf; ");
        assertThat(error("director:\n  metrics:\n    listen:\n      node1: 127.0.0.1:99999\n")).startsWith(FILE
                + ":4: director: metrics: listen: node1: port 99999 is out of range; use 1..65535");
        assertThat(error("metrics:\n  listen:\n    node1: 127.0.0.1:9810\ndirector:\n  metrics:\n    listen:\n"
                + "      node1: 127.0.0.1:9810\n      node2: 127.0.0.1:9811\n")).isEqualTo(FILE + ":7: director:"
                + " metrics: listen: node1: 127.0.0.1:9810 is also node1's metrics: listen: address, and only one can"
                + " listen there; give the director its own port, e.g. 127.0.0.1:9811");
    }

    @Test
    void theDirectorReadsItsNodesEntryWithTheMetricsTokenAndTls() throws Exception {
        Files.writeString(dir.resolve("jheartbeat.yaml"), "metrics:\n  token_file: /etc/ha.d/metrics.token\n"
                + "director:\n  metrics:\n    listen:\n      Node1: 127.0.0.1:9811\n");
        DirectorSection.Endpoint e = DirectorSection.load(dir, "node1").orElseThrow();
        assertThat(e.listen()).isEqualTo(new InetSocketAddress("127.0.0.1", 9811));
        assertThat(e.tokenFile()).contains(Path.of("/etc/ha.d/metrics.token"));
        assertThat(e.tls()).isEmpty();
        assertThat(DirectorSection.load(dir, "node2")).isEmpty();
        assertThat(DirectorSection.load(dir.resolve("absent"), "node1")).isEmpty();
        Files.writeString(dir.resolve("jheartbeat.yaml"), "director:\n  metrics: [1]\n");
        assertThatThrownBy(() -> DirectorSection.load(dir, "node1")).isInstanceOf(UserException.class)
                .hasMessage(dir.resolve("jheartbeat.yaml") + ":2: director: metrics: must be a mapping of keys to"
                        + " values (listen); indent the entries under it");
    }
}
