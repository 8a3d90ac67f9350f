package org.jheartbeat.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state directory's {@code groups}: the resource groups the daemon may run, kept across restarts. */
class StateDirectoryGroupsTest {
    static final List<NodeName> NODES = List.of(NodeName.of("node1"), NodeName.of("node2"));

    @Test
    void theGroupsWrittenAreReadBackInOrderAndNoneWithoutAFile(@TempDir Path dir) throws Exception {
        StateDirectory state = new StateDirectory(dir);
        assertThat(state.readGroups(NODES)).isEmpty();
        List<ResourceGroupDecl> groups = HaresourcesParser.parse(Path.of("haresources"), """
                node2 198.18.0.101 labweb2
                node1 198.18.0.100/24/eth0 Filesystem::/dev/sdb1::/data::ext4 labweb
                """, NODES).groups();
        state.writeGroups(groups);
        List<ResourceGroupDecl> back = new StateDirectory(dir).readGroups(NODES);
        assertThat(back).extracting(ResourceGroupDecl::toString)
                .containsExactly("node2 198.18.0.101 labweb2", "node1 198.18.0.100/24/eth0"
                        + " Filesystem::/dev/sdb1::/data::ext4 labweb");
        assertThat(back).extracting(ResourceGroupDecl::resources).isEqualTo(groups.stream()
                .map(ResourceGroupDecl::resources).toList());
        assertThat(Files.exists(dir.resolve("groups.tmp"))).isFalse();
    }

    @Test
    void aFileThatIsNotHaresourcesLinesIsAnErrorNamingIt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("groups"), "node7 198.18.0.101\n");
        assertThatThrownBy(() -> new StateDirectory(dir).readGroups(NODES))
                .hasMessageStartingWith(dir.resolve("groups") + ":1:");
    }
}
