package org.jheartbeat.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb cleanup GROUP} for a group haresources does not have is a wrong argument, answered as an
 * error naming the groups there are (not a refusal, which {@code hb} turns into "try again later").
 */
class ControlHandlerCleanupTest {
    @Test
    void aGroupThatDoesNotExistIsAnErrorListingTheGroups(@TempDir Path dir) {
        ConfigDirBuilder.validHere().haresources("node1 198.18.0.100/24/eth0 labweb\nnode2 198.18.0.101/24/eth0"
                + " labweb2\n").writeTo(dir);
        ClusterConfig config = ConfigLoader.load(dir, Optional.of(NodeName.of("node1"))).config().orElseThrow();
        ControlResponse r = new ControlHandler(null, config, null, () -> 0, () -> null)
                .apply(new ControlRequest.Cleanup(Optional.of("NOSUCH")));
        assertThat(r.kind()).isEqualTo(ControlResponse.Kind.ERROR);
        assertThat(r.error()).isEqualTo("no resource group NOSUCH in haresources; its groups are 1 198.18.0.100/24/eth0,"
                + " 2 198.18.0.101/24/eth0: name one by its key (the first resource of its line) or its number")
                .startsWith(ControlResponse.NO_SUCH_GROUP);
    }
}
