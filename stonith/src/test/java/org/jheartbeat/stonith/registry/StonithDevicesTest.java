package org.jheartbeat.stonith.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.HostList;
import org.jheartbeat.stonith.device.nil.NullDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StonithDevicesTest {
    /** A device with apcsmart's names, to test positional mapping without that package. */
    private static final StonithDevice TWO = new StonithDevice() {
        public String type() { return "two"; }
        public List<String> configNames() { return List.of("ttydev", "hostlist"); }
        public void configure(Map<String, String> params) { }
        public StonithResult status() { return StonithResult.OK; }
        public List<String> hostList() { return List.of(); }
        public StonithResult reset(ResetRequest request, String node) { return StonithResult.OK; }
    };

    @Test
    void createsEveryBuiltIn() throws Exception {
        assertThat(StonithDevices.builtInTypes()).containsExactly("null", "meatware", "ssh", "nut", "apcsmart");
        for (String type : StonithDevices.builtInTypes()) {
            assertThat(StonithDevices.create(type).type()).isEqualTo(type);
        }
        assertThat(StonithDevices.create("NULL")).isInstanceOf(NullDevice.class);
    }

    @Test
    void unknownTypeSaysHowToListTypes() {
        for (String bad : new String[] {"apcsmrt", "", "external/", "fence_no_such_agent", "external/no_such"}) {
            assertThatThrownBy(() -> StonithDevices.create(bad)).isInstanceOf(StonithConfigException.class)
                    .hasMessageContaining("hb stonith list-types");
        }
    }

    @Test
    void typesListPluginsAndAgents(@TempDir Path dir) throws Exception {
        Path plugins = Files.createDirectory(dir.resolve("external"));
        Files.writeString(plugins.resolve("zz"), "");
        Files.writeString(plugins.resolve("aa"), "");
        Path agents = Files.createDirectory(dir.resolve("sbin"));
        Path agent = Files.writeString(agents.resolve("fence_fake"), "#!/bin/sh\n");
        agent.toFile().setExecutable(true);
        Files.writeString(agents.resolve("other"), "");
        assertThat(StonithDevices.types(plugins, List.of(agents, dir.resolve("missing"))))
                .containsExactly("null", "meatware", "ssh", "nut", "apcsmart", "external/aa", "external/zz", "fence_fake");
    }

    @Test
    void installedTypesOnThisMachine() throws Exception {
        assumeThat(Files.isExecutable(Path.of("/usr/lib/stonith/plugins/external/ssh"))).isTrue();
        assumeThat(Files.isExecutable(Path.of("/usr/sbin/fence_dummy"))).isTrue();
        assertThat(StonithDevices.types()).contains("null", "external/ssh", "external/nut", "fence_dummy");
        assertThat(StonithDevices.create("external/ssh").configNames()).containsExactly("hostlist");
        assertThat(StonithDevices.create("fence_dummy").configNames()).containsExactly("hostlist");
    }

    @Test
    void lastNameTakesTheRestAsClusterGlue() throws Exception {
        assertThat(StonithDevices.positional(TWO, List.of("/dev/ttyS1", "nodeb", "nodec")))
                .containsExactly(Map.entry("ttydev", "/dev/ttyS1"), Map.entry("hostlist", "nodeb nodec"));
        assertThat(StonithDevices.positional(TWO, "  /dev/ttyS1\tnodeb  "))
                .containsExactly(Map.entry("ttydev", "/dev/ttyS1"), Map.entry("hostlist", "nodeb"));
        assertThat(StonithDevices.positional(new NullDevice(), "a b c")).containsExactly(Map.entry("hostlist", "a b c"));
    }

    @Test
    void missingValueNamesTheParameter() {
        assertThatThrownBy(() -> StonithDevices.positional(TWO, List.of("/dev/ttyS1")))
                .isInstanceOf(StonithConfigException.class).hasMessageContaining("'hostlist' is missing");
        assertThatThrownBy(() -> StonithDevices.positional(TWO, ""))
                .hasMessageContaining("'ttydev' is missing").hasMessageContaining("ttydev hostlist");
    }

    @Test
    void deviceWithoutParametersRefusesWords() throws Exception {
        StonithDevice none = new StonithDevice() {
            public String type() { return "suicide"; }
            public List<String> configNames() { return List.of(); }
            public void configure(Map<String, String> params) { }
            public StonithResult status() { return StonithResult.OK; }
            public List<String> hostList() { return List.of(); }
            public StonithResult reset(ResetRequest request, String node) { return StonithResult.OK; }
        };
        assertThat(StonithDevices.positional(none, List.of())).isEmpty();
        assertThatThrownBy(() -> StonithDevices.positional(none, List.of("x"))).hasMessageContaining("takes no parameters");
    }

    @Test
    void hostListParsingAsClusterGlue() {
        assertThat(HostList.parse("NodeA,nodeb\tnodec\r\n nodeA")).containsExactly("nodea", "nodeb", "nodec");
        assertThat(HostList.parse(null)).isEmpty();
    }
}
