package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.state.StateDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The maintenance setting: scopes, versions, the state-file form and its persistence. */
class MaintenanceTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");

    @Test
    void scopesCoverWhatTheyName() {
        Maintenance m = Maintenance.NONE
                .with(new Maintenance.Scope(Maintenance.Kind.NODE, "node1"), true, 1)
                .with(new Maintenance.Scope(Maintenance.Kind.GROUP, "198.18.0.101/24/eth0"), true, 2);
        assertThat(m.covers(N1, "anything")).isTrue();
        assertThat(m.covers(N2, "198.18.0.101/24/eth0")).isTrue();
        assertThat(m.covers(N2, "198.18.0.100/24/eth0")).isFalse();
        assertThat(m.reason(N1, "198.18.0.101/24/eth0")).isEqualTo("node node1");
        assertThat(m.reason(N2, "198.18.0.101/24/eth0")).isEqualTo("group 198.18.0.101/24/eth0");
        assertThat(m.describe()).isEqualTo("node node1; group 198.18.0.101/24/eth0");
        Maintenance off = m.with(new Maintenance.Scope(Maintenance.Kind.NODE, "node1"), false, 3);
        assertThat(off.covers(N1, "x")).isFalse();
        assertThat(off.version()).isEqualTo(3);
        assertThat(Maintenance.NONE.describe()).isEqualTo("off");
        assertThatThrownBy(() -> m.with(Maintenance.Scope.CLUSTER, true, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void newerVersionWinsAndATieKeepsTheWiderSetting() {
        Maintenance on = Maintenance.NONE.with(Maintenance.Scope.CLUSTER, true, 4);
        Maintenance off = new Maintenance(4, false, new TreeSet<>(), new TreeSet<>());
        Maintenance later = new Maintenance(5, false, new TreeSet<>(), new TreeSet<>());
        assertThat(Maintenance.newer(on, off)).isSameAs(on);
        assertThat(Maintenance.newer(off, on)).isSameAs(on);
        assertThat(Maintenance.newer(on, later)).isSameAs(later);
        Maintenance a = new Maintenance(2, false, new TreeSet<>(Set.of("node1")), new TreeSet<>());
        Maintenance b = new Maintenance(2, false, new TreeSet<>(Set.of("node2")), new TreeSet<>());
        assertThat(Maintenance.newer(a, b)).isEqualTo(Maintenance.newer(b, a));
    }

    @Test
    void theStateFileFormRoundTripsAnyName() {
        Maintenance m = new Maintenance(7, true, new TreeSet<>(Set.of("node1")),
                new TreeSet<>(Set.of("IPaddr::198.18.0.1/24/eth0", "odd,key=%x", "ünï")));
        String text = m.encode();
        assertThat(text).startsWith("version=7\ncluster=on\nnodes=node1\ngroups=");
        assertThat(text).doesNotContain("odd,key");
        assertThat(Maintenance.parse(text)).isEqualTo(m);
    }

    @Test
    void badStateFilesAreRefusedWithTheirLine() {
        assertThatThrownBy(() -> Maintenance.parse("version=1\ncluster=maybe\nnodes=\ngroups=\n"))
                .hasMessageStartingWith("line 2:");
        assertThatThrownBy(() -> Maintenance.parse("version=1\ncluster=on\nnodes=\n"))
                .hasMessageContaining("version, cluster, nodes and groups are all needed");
        assertThatThrownBy(() -> Maintenance.parse("version=1\nversion=2\n")).hasMessageStartingWith("line 2:");
        assertThatThrownBy(() -> Maintenance.parse("version=1\ncluster=on\nnodes=a,,b\ngroups=\n"))
                .hasMessageStartingWith("line 3:");
        assertThatThrownBy(() -> Maintenance.parse("version=1\ncluster=on\nnodes=%4\ngroups=\n"))
                .hasMessageStartingWith("line 3:");
        assertThatThrownBy(() -> Maintenance.parse("frob=1\n")).hasMessageContaining("unknown key 'frob'");
        assertThatThrownBy(() -> Maintenance.parse("x".repeat(Maintenance.MAX_ENCODED + 1)))
                .hasMessageContaining("longer than");
    }

    @Test
    void theStateDirectoryKeepsTheSettingAcrossRestarts(@TempDir Path dir) throws Exception {
        StateDirectory state = new StateDirectory(dir);
        assertThat(state.readMaintenance()).isEqualTo(Maintenance.NONE);
        Maintenance m = Maintenance.NONE.with(Maintenance.Scope.CLUSTER, true, 3);
        state.writeMaintenance(m);
        assertThat(new StateDirectory(dir).readMaintenance()).isEqualTo(m);
        assertThat(Files.exists(dir.resolve("maintenance.tmp"))).isFalse();
        Files.writeString(dir.resolve("maintenance"), "version=3\ncluster=yes\n");
        assertThatThrownBy(state::readMaintenance).hasMessageStartingWith(dir.resolve("maintenance") + ":2:");
    }
}
