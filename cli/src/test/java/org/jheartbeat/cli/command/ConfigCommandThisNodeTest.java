package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.resources.names.TakenHostNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node name {@code hb config check/push} and {@code hb export} act as: after node1 took
 * node2's host name ({@code Hostname::node2::hostname=yes}), {@code uname -n} says node2, and the tools must
 * still be node1, as the daemon is ({@code NodeIdentity}); otherwise {@code hb config push} on node1 would
 * take node1 for the peer and push to itself.
 */
class ConfigCommandThisNodeTest {
    @TempDir
    Path dir;

    @Test
    void aHostNameTakenFromThePeerIsNotThisNodesName() throws Exception {
        TakenHostNames taken = new TakenHostNames(dir.resolve("hostname"));
        assertThat(ConfigCommand.thisNode("node2", taken)).isEqualTo(NodeName.of("node2"));
        taken.record("node2", "node1");
        assertThat(ConfigCommand.thisNode("node2", taken)).isEqualTo(NodeName.of("node1"));
        assertThat(ConfigCommand.thisNode("node1", taken)).isEqualTo(NodeName.of("node1"));
        taken.remove("node2");
        assertThat(ConfigCommand.thisNode("node2", taken)).isEqualTo(NodeName.of("node2"));
    }

    @Test
    void anUnreadableRecordFallsBackToUnameN() throws Exception {
        TakenHostNames taken = new TakenHostNames(dir.resolve("hostname"));
        Files.createDirectories(taken.dir());
        Files.writeString(taken.file("node2"), "garbage\n");
        assertThat(ConfigCommand.thisNode("node2", taken)).isEqualTo(NodeName.of("node2"));
    }
}
