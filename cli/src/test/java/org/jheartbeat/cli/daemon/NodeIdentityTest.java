package org.jheartbeat.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.resources.names.TakenHostNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeIdentityTest {
    @TempDir
    Path dir;

    @Test
    void unameNameUnlessItWasTakenFromThePeer() throws Exception {
        TakenHostNames taken = new TakenHostNames(dir);
        assertThat(NodeIdentity.decide(Optional.empty(), "Node2", taken)).isEqualTo(NodeName.of("node2"));
        taken.record("node1", "node2");
        assertThatThrownBy(() -> NodeIdentity.decide(Optional.empty(), "node1", taken))
                .isInstanceOfSatisfying(UserException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCodes.CONFIG))
                .hasMessageStartingWith(dir.resolve("node1") + ":1: uname -n says node1, but this machine took that"
                        + " host name over from its peer")
                .hasMessageContaining("its own name is node2")
                .hasMessageContaining("Start it with --node-name node2");
        // an operator who names the node is believed
        assertThat(NodeIdentity.decide(Optional.of("node2"), "node1", taken)).isEqualTo(NodeName.of("node2"));
        assertThat(NodeIdentity.decide(Optional.of("node1"), "node1", taken)).isEqualTo(NodeName.of("node1"));
        // the peer's name back on the peer after a reboot of this machine: the record is gone with /run
        taken.remove("node1");
        assertThat(NodeIdentity.decide(Optional.empty(), "node1", taken)).isEqualTo(NodeName.of("node1"));
    }

    @Test
    void anUnreadableRecordIsAUserErrorToo() throws Exception {
        Files.writeString(dir.resolve("node1"), "garbage\n");
        assertThatThrownBy(() -> NodeIdentity.decide(Optional.empty(), "node1", new TakenHostNames(dir)))
                .isInstanceOf(UserException.class).hasMessageContaining("holds no own=NAME line");
    }
}
