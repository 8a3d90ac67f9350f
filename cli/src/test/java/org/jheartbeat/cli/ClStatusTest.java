package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jheartbeat.cli.runtime.ClStatus;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cl_status answers in Heartbeat 3.0.6's forms and exit codes (facts H). */
class ClStatusTest {
    @TempDir
    Path dir;

    StatusSnapshot snapshot(String peerStatus, String eth1) {
        return new StatusSnapshot("node1", 7, "stable", "local",
                List.of(new StatusSnapshot.NodeView("node1", "active", true, Map.of()),
                        new StatusSnapshot.NodeView("node2", peerStatus, false, Map.of("eth1", eth1, "eth0", "up"))),
                List.of(), 0, Map.of(), Map.of(), "no STONITH device configured", "same as node2", List.of());
    }

    ClusterConfig config() {
        return ConfigLoader.load(ConfigDirBuilder.validTwoNode().writeTo(dir), java.util.Optional.empty()).config().orElseThrow();
    }

    ClStatus.Answer ask(StatusSnapshot s, String... args) {
        return ClStatus.answer(List.of(args), s, config());
    }

    @Test
    void answersLikeHeartbeat() {
        StatusSnapshot ok = snapshot("active", "up");
        assertThat(ask(ok, "hbstatus")).isEqualTo(new ClStatus.Answer(0, "Heartbeat is running on this machine.\n"));
        assertThat(ask(ok, "listnodes").output()).as("reverse of ha.cf order").isEqualTo("node2\nnode1\n");
        assertThat(ask(ok, "nodestatus", "node2")).isEqualTo(new ClStatus.Answer(0, "active\n"));
        assertThat(ask(ok, "-m", "nodestatus", "NODE2")).isEqualTo(new ClStatus.Answer(0, "The cluster node node2 is active\n"));
        assertThat(ask(ok, "nodetype", "node2").output()).isEqualTo("normal\n");
        assertThat(ask(ok, "listhblinks", "node2").output()).isEqualTo("\teth0\n\teth1\n");
        assertThat(ask(ok, "hblinkstatus", "node2", "eth1")).isEqualTo(new ClStatus.Answer(0, "up\n"));
        assertThat(ask(ok, "-m", "hblinkstatus", "node2", "eth1").output()).isEqualTo("The node node2's heartbeat link eth1 is up\n");
        assertThat(ask(ok, "rscstatus")).isEqualTo(new ClStatus.Answer(0, "local\n"));
        assertThat(ask(ok, "-m", "rscstatus").output()).isEqualTo("This node is holding local resources.\n");
        assertThat(ask(ok, "hbparameter", "-p", "keepalive").output()).isEqualTo("500ms\n");
        assertThat(ask(ok, "hbparameter", "-p", "deadtime").output()).isEqualTo("3\n");
        assertThat(ask(ok, "-m", "hbparameter", "-p", "auto_failback").output())
                .isEqualTo("Heartbeat parameter auto_failback's value: on\n");
    }

    @Test
    void theWatchdogDeviceIsARecordedParameterOnlyWhenSet() {
        StatusSnapshot ok = snapshot("active", "up");
        assertThat(ask(ok, "hbparameter", "-p", "watchdog")).isEqualTo(new ClStatus.Answer(1,
                "Error: heartbeat parameter watchdog is not recorded\n"));
        ClusterConfig guarded = ConfigLoader.load(ConfigDirBuilder.validTwoNode().haCfAppend("watchdog /dev/null\n")
                .writeTo(dir), java.util.Optional.empty()).config().orElseThrow();
        assertThat(ClStatus.answer(List.of("hbparameter", "-p", "watchdog"), ok, guarded))
                .isEqualTo(new ClStatus.Answer(0, "/dev/null\n"));
    }

    @Test
    void deadNodesAndLinksExitOneBadArgumentsEleven() {
        StatusSnapshot dead = snapshot("dead", "dead");
        assertThat(ask(dead, "nodestatus", "node2")).isEqualTo(new ClStatus.Answer(1, "dead\n"));
        assertThat(ask(dead, "hblinkstatus", "node2", "eth1")).isEqualTo(new ClStatus.Answer(1, "dead\n"));
        assertThat(ask(dead, "hbparameter", "-p", "node").exitCode()).isEqualTo(1);
        assertThat(ask(dead, "frobnicate").exitCode()).isEqualTo(ClStatus.PARAMETER_ERROR);
        assertThat(ask(dead, "nodestatus").exitCode()).isEqualTo(ClStatus.PARAMETER_ERROR);
        assertThat(ask(dead).exitCode()).isEqualTo(ClStatus.PARAMETER_ERROR);
        assertThat(ask(dead, "nodestatus", "node9").exitCode()).isEqualTo(1);
    }

    @Test
    void jsonIsOneObjectWithTheDocumentedFieldsAndEscapes() {
        StatusSnapshot s = new StatusSnapshot("node1", 7, "stable", "local",
                List.of(new StatusSnapshot.NodeView("node2", "active", false, Map.of("eth1", "up"))),
                List.of(new StatusSnapshot.GroupView("198.18.0.100", "node1", "running", "node1", "198.18.0.100 labweb"),
                        new StatusSnapshot.GroupView("x", "node2", "stopped", "-", "x")),
                2, Map.of("198.18.1.9 on eth1", 2L), Map.of("serial /dev/ttyS0", Map.of("garbage bytes", 5L)),
                "none", "same as node2", List.of("a \"quoted\" line\\with\ttab"));
        assertThat(s.toJson()).startsWith("{\"schema\":\"jheartbeat.status/1\",\"node\":\"node1\",\"generation\":7,")
                .contains("\"rsc_status\":\"local\"")
                .contains("{\"name\":\"node2\",\"status\":\"active\",\"local\":false,\"type\":\"normal\",\"links\":{\"eth1\":\"up\"}}")
                .contains("\"running_on\":\"node1\"").contains("\"running_on\":null")
                .contains("\"bad_packets_by_source\":{\"198.18.1.9 on eth1\":2}")
                .contains("\"media\":{\"serial /dev/ttyS0\":{\"garbage bytes\":5}}")
                .contains("\"config\":\"same as node2\"")
                .endsWith("\"recent_events\":[\"a \\\"quoted\\\" line\\\\with\\ttab\"]}");
    }

    @Test
    void pingNodesAreListedWithTypePingAndStatusPingOrDead() {
        ClusterConfig c = ConfigLoader.load(ConfigDirBuilder.validTwoNode()
                .haCfAppend("ping 198.18.0.254\nping_group routers 198.18.0.1 198.18.0.2\n").writeTo(dir),
                java.util.Optional.empty()).config().orElseThrow();
        StatusSnapshot s = new StatusSnapshot("node1", 7, "stable", "local",
                List.of(new StatusSnapshot.NodeView("node1", "active", true, Map.of()),
                        new StatusSnapshot.NodeView("node2", "active", false, Map.of("eth1", "up")),
                        new StatusSnapshot.NodeView("198.18.0.254", "ping", false, Map.of(), "ping"),
                        new StatusSnapshot.NodeView("routers", "dead", false, Map.of(), "ping")),
                List.of(), 0, Map.of(), Map.of(), "no STONITH device configured", "same as node2", List.of());
        assertThat(ClStatus.answer(List.of("listnodes"), s, c).output()).as("ping lines after the node lines")
                .isEqualTo("routers\n198.18.0.254\nnode2\nnode1\n");
        ClusterConfig pingFirst = ConfigLoader.load(ConfigDirBuilder.validTwoNode()
                .haCfReplace("node node1", "ping 198.18.0.254\nnode node1").writeTo(dir.resolve("first")),
                java.util.Optional.empty()).config().orElseThrow();
        assertThat(ClStatus.answer(List.of("listnodes"), s, pingFirst).output())
                .as("as a real Heartbeat 3.0.6 printed it in the lab (ping line first): node2 node1 198.18.0.254")
                .isEqualTo("node2\nnode1\n198.18.0.254\n");
        assertThat(ClStatus.answer(List.of("nodetype", "198.18.0.254"), s, c)).isEqualTo(new ClStatus.Answer(0, "ping\n"));
        assertThat(ClStatus.answer(List.of("nodetype", "node2"), s, c).output()).isEqualTo("normal\n");
        assertThat(ClStatus.answer(List.of("nodestatus", "198.18.0.254"), s, c)).isEqualTo(new ClStatus.Answer(0, "ping\n"));
        assertThat(ClStatus.answer(List.of("-m", "nodestatus", "routers"), s, c))
                .isEqualTo(new ClStatus.Answer(1, "The cluster node routers is dead\n"));
        assertThat(s.render()).contains("198.18.0.254 ping    (ping node)");
        assertThat(s.toJson()).contains("{\"name\":\"routers\",\"status\":\"dead\",\"local\":false,\"type\":\"ping\",");
    }
}
