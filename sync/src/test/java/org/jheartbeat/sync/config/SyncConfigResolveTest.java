package org.jheartbeat.sync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncConfigResolveTest {
    private static final Path SRC = Path.of("sync.yaml");
    private ClusterConfig cluster;

    @BeforeEach
    void cluster(@TempDir Path dir) {
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode()
                .haresources("node1 198.18.0.100/24/eth0 labweb\nnode2 198.18.0.200/24/eth0 labmail labweb2\n")
                .writeTo(dir), Optional.of(NodeName.of("node1")));
        assertThat(r.errors()).isEmpty();
        ClusterConfig c = r.config().orElseThrow();
        assertThat(c.resourceGroups()).hasSize(2);
        // haresources forbids a resource in two groups; a config built in code can still have it,
        // and resolve must not pick one of them silently
        List<ResourceGroupDecl> groups = new ArrayList<>(c.resourceGroups());
        groups.add(new ResourceGroupDecl(NodeName.of("node2"), List.of(
                new ResourceSpec("IPaddr", List.of("198.18.0.201/24/eth0"), "198.18.0.201/24/eth0"),
                new ResourceSpec("shared", List.of(), "shared")), 3));
        groups.add(new ResourceGroupDecl(NodeName.of("node1"), List.of(
                new ResourceSpec("IPaddr", List.of("198.18.0.202/24/eth0"), "198.18.0.202/24/eth0"),
                new ResourceSpec("shared", List.of(), "shared")), 4));
        cluster = new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), groups, c.stonith());
    }

    private static String job(String group) {
        return "nodes:\n  node1: 10.0.0.1\n  node2: 10.0.0.2\njobs:\n  web:\n    group: " + group + "\n    paths: [/srv/web]\n";
    }

    @Test
    void groupKeyOrUniqueResourceTokenResolvesToTheKey() throws Exception {
        assertThat(SyncConfigParser.resolve(SyncConfigParser.parse(job("198.18.0.100/24/eth0"), SRC), cluster)
                .jobs().get(0).group()).isEqualTo("198.18.0.100/24/eth0");
        assertThat(SyncConfigParser.resolve(SyncConfigParser.parse(job("labmail"), SRC), cluster)
                .jobs().get(0).group()).isEqualTo("198.18.0.200/24/eth0");
        assertThat(SyncConfigParser.resolve(SyncConfigParser.parse(job("labweb"), SRC), cluster)
                .jobs().get(0).group()).isEqualTo("198.18.0.100/24/eth0");
    }

    @Test
    void unknownGroupListsTheGroups() throws Exception {
        SyncConfig c = SyncConfigParser.parse(job("nosuch"), SRC);
        assertThatThrownBy(() -> SyncConfigParser.resolve(c, cluster))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage("sync.yaml:5: job web: group [nosuch] is not a resource group of haresources; write a group key "
                        + "(groups: 198.18.0.100/24/eth0, 198.18.0.200/24/eth0, 198.18.0.201/24/eth0, 198.18.0.202/24/eth0)");
    }

    @Test
    void ambiguousTokenIsAnError() throws Exception {
        SyncConfig c = SyncConfigParser.parse(job("shared"), SRC);
        assertThatThrownBy(() -> SyncConfigParser.resolve(c, cluster))
                .hasMessage("sync.yaml:5: job web: [shared] is a resource of 2 groups (198.18.0.201/24/eth0, "
                        + "198.18.0.202/24/eth0); write the group key instead");
    }

    @Test
    void nodesMustBeHaCfNodes() throws Exception {
        SyncConfig c = SyncConfigParser.parse("nodes:\n  node1: 10.0.0.1\n  node3: 10.0.0.3\n", SRC);
        assertThatThrownBy(() -> SyncConfigParser.resolve(c, cluster))
                .hasMessage("sync.yaml:3: nodes: [node3] is not a node of ha.cf; use one of node1, node2");
    }

    @Test
    void everyNodeNeedsAnAddressWhenAJobTargetsThePeer() throws Exception {
        ReplicationJobSpec web = new ReplicationJobSpec("web", "labweb", List.of(Path.of("/srv/web")), Optional.empty(),
                ReplicationJobSpec.DEFAULT_SCHEDULE, true, List.of(), false, 0.5, 3, Duration.ofSeconds(30),
                Duration.ofHours(1), 0);
        SyncConfig c = new SyncConfig(null, SyncConfig.DEFAULT_STATE_DIR, SyncConfig.DEFAULT_SSH,
                Map.of("node1", "10.0.0.1"), List.of(web), List.of());
        assertThatThrownBy(() -> SyncConfigParser.resolve(c, cluster))
                .hasMessage("sync.yaml: nodes: ha.cf node node2 has no address, but job web replicates to the peer; "
                        + "add \"node2: ADDRESS\" under nodes:");
        // a path-target job needs no addresses at all
        SyncConfig pathOnly = SyncConfigParser.parse("jobs:\n  web:\n    group: labweb\n    paths: [/a]\n    target: /r\n", SRC);
        assertThat(SyncConfigParser.resolve(pathOnly, cluster).jobs()).hasSize(1);
    }

    /** load: the file's own problems and those against the cluster, for the jobs that parsed, in one report. */
    @Test
    void loadReportsTheFilesProblemsAndTheClustersTogether(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("sync.yaml");
        java.nio.file.Files.writeString(f, "nodes:\n  node1: 10.0.0.1\n  node3: 10.0.0.3\njobs:\n"
                + "  web:\n    group: nosuch\n    paths: [/srv/web]\n    target: /r\n"
                + "  mail:\n    group: labmail\n    paths: [/srv/mail]\n    target: /r\n    delete: maybe\n"
                + "  other:\n    group: shared\n    paths: [/srv/other]\n    target: /r\n");
        assertThatThrownBy(() -> SyncConfigParser.load(f, cluster))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage(String.join("\n",
                        f + ":3: nodes: [node3] is not a node of ha.cf; use one of node1, node2",
                        f + ":5: job web: group [nosuch] is not a resource group of haresources; write a group key"
                                + " (groups: 198.18.0.100/24/eth0, 198.18.0.200/24/eth0, 198.18.0.201/24/eth0,"
                                + " 198.18.0.202/24/eth0)",
                        f + ":13: job mail: delete [maybe] is not a boolean; write true or false",
                        f + ":14: job other: [shared] is a resource of 2 groups (198.18.0.201/24/eth0,"
                                + " 198.18.0.202/24/eth0); write the group key instead"));
        java.nio.file.Files.writeString(f, "jobs:\n  web:\n    group: labweb\n    paths: [/srv/web]\n    target: /r\n");
        assertThat(SyncConfigParser.load(f, cluster).jobs().get(0).group()).isEqualTo("198.18.0.100/24/eth0");
    }
}
