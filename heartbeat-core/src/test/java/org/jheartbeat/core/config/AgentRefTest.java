package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The haresources agent-class syntax ({@link AgentRef#parse}) and its diagnostics in the parser. */
class AgentRefTest {
    private static AgentRef ref(String token) {
        return HaresourcesParser.resource(token).orElseThrow().agentRef();
    }

    @Test
    void bareNamesAndResourceDScriptsKeepHeartbeatMeaning() {
        assertThat(ref("labweb::8080")).isEqualTo(new AgentRef.Heartbeat("labweb", List.of("8080")));
        assertThat(ref("Filesystem::/dev/sdb1::/srv::ext4"))
                .isEqualTo(new AgentRef.Heartbeat("Filesystem", List.of("/dev/sdb1", "/srv", "ext4")));
        assertThat(ref("198.18.0.100/24/eth0")).isEqualTo(new AgentRef.Heartbeat("IPaddr", List.of("198.18.0.100/24/eth0")));
        assertThat(ref("drbddisk::r0")).isEqualTo(new AgentRef.Heartbeat("drbddisk", List.of("r0")));
        assertThat(ref("heartbeat:labweb::x")).isEqualTo(new AgentRef.Heartbeat("labweb", List.of("x")));
        assertThat(ref("labweb").timeouts()).isEqualTo(OperationTimeouts.NONE);
    }

    @Test
    void classPrefixesInBothSpellings() {
        assertThat(ref("lsb:apache2")).isEqualTo(new AgentRef.Lsb("apache2", OperationTimeouts.NONE));
        assertThat(ref("lsb::apache2")).isEqualTo(new AgentRef.Lsb("apache2", OperationTimeouts.NONE));
        assertThat(ref("LSB:apache2").resourceClass()).isEqualTo(ResourceClass.LSB);
        assertThat(ref("systemd:mariadb")).isEqualTo(new AgentRef.Systemd("mariadb", OperationTimeouts.NONE));
        assertThat(ref("systemd::mariadb.service")).isEqualTo(new AgentRef.Systemd("mariadb.service", OperationTimeouts.NONE));
    }

    @Test
    void ocfParametersInOrderAndTimeoutsApart() {
        AgentRef.Ocf o = (AgentRef.Ocf) ref("ocf:heartbeat:Filesystem::device=/dev/loop0::directory=/srv/web"
                + "::fstype=ext4::options=rw,noatime::op_timeout=90s::op_stop_timeout=2min");
        assertThat(o.provider()).isEqualTo("heartbeat");
        assertThat(o.type()).isEqualTo("Filesystem");
        assertThat(o.qualifiedName()).isEqualTo("ocf:heartbeat:Filesystem");
        assertThat(o.params()).containsExactly(Map.entry("device", "/dev/loop0"), Map.entry("directory", "/srv/web"),
                Map.entry("fstype", "ext4"), Map.entry("options", "rw,noatime"));
        assertThat(o.timeouts().forOperation(OperationTimeouts.Operation.STOP, Duration.ofSeconds(60)))
                .isEqualTo(Duration.ofMinutes(2));
        assertThat(o.timeouts().forOperation(OperationTimeouts.Operation.START, Duration.ofSeconds(60)))
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(((AgentRef.Ocf) ref("ocf:heartbeat:IPaddr2::ip=1.2.3.4::nic=")).params()).containsEntry("nic", "");
        AgentRef.Lsb l = (AgentRef.Lsb) ref("lsb:lighttpd::op_monitor_timeout=500ms");
        assertThat(l.timeouts().forOperation(OperationTimeouts.Operation.MONITOR, Duration.ofSeconds(20)))
                .isEqualTo(Duration.ofMillis(500));
        assertThat(l.timeouts().forOperation(OperationTimeouts.Operation.START, Duration.ofSeconds(60)))
                .as("no timeout written: the agent's default").isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void monitorOptionsPerResource() {
        AgentRef.Lsb l = (AgentRef.Lsb) ref("lsb:lighttpd::op_monitor_interval=2s::op_restart_limit=1"
                + "::op_restart_window=5min::op_monitor_timeout=3s");
        assertThat(l.timeouts().monitorInterval()).contains(Duration.ofSeconds(2));
        assertThat(l.timeouts().restartLimit()).hasValue(1);
        assertThat(l.timeouts().restartWindow()).contains(Duration.ofMinutes(5));
        assertThat(l.timeouts().monitor()).contains(Duration.ofSeconds(3));
        assertThat(ref("lsb:lighttpd::op_monitor_interval=0").timeouts().monitorInterval()).contains(Duration.ZERO);
        assertThat(ref("ocf:heartbeat:Dummy::op_monitor_interval=off").timeouts().monitorInterval())
                .contains(Duration.ZERO);
        assertThat(ref("systemd:x::op_restart_limit=0").timeouts().restartLimit()).hasValue(0);
        assertThat(ref("lsb:lighttpd").timeouts().monitorInterval()).isEmpty();
        assertThatThrownBy(() -> ref("lsb:lighttpd::op_restart_limit=-1"))
                .hasMessageContaining("op_restart_limit of resource [lsb:lighttpd::op_restart_limit=-1]")
                .hasMessageContaining("whole number from 0 to 1000");
        assertThatThrownBy(() -> ref("lsb:lighttpd::op_restart_limit=1001")).hasMessageContaining("from 0 to 1000");
        assertThatThrownBy(() -> ref("lsb:lighttpd::op_monitor_interval=never"))
                .hasMessageContaining("op_monitor_interval of resource").hasMessageContaining("does not parse");
        assertThatThrownBy(() -> ref("lsb:lighttpd::op_restart_windw=1min"))
                .hasMessageContaining("did you mean op_restart_window?");
    }

    @Test
    void timeoutSyntaxIsPacemakers() {
        assertThat(OperationTimeouts.parseDuration("90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(OperationTimeouts.parseDuration("60s")).isEqualTo(Duration.ofSeconds(60));
        assertThat(OperationTimeouts.parseDuration("2min")).isEqualTo(Duration.ofMinutes(2));
        assertThat(OperationTimeouts.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(OperationTimeouts.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(OperationTimeouts.parseDuration("250ms")).isEqualTo(Duration.ofMillis(250));
        for (String bad : List.of("", "5x", "1.5s", "-3", "0", "25h", "s", " 5s")) {
            assertThatThrownBy(() -> OperationTimeouts.parseDuration(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void badTokensSayWhatIsWrongAndWhatToWrite() {
        assertThatThrownBy(() -> ref("lbs:apache2")).hasMessage("unknown resource class [lbs] in [lbs:apache2]"
                + " (did you mean lsb?); write one of heartbeat, lsb, ocf, systemd before the first ':', e.g."
                + " lsb:apache2 or ocf:heartbeat:IPaddr2::ip=...");
        assertThatThrownBy(() -> ref("ocf:Filesystem::device=x")).hasMessageContaining("is not of the form"
                + " ocf:PROVIDER:TYPE");
        assertThatThrownBy(() -> ref("ocf::heartbeat")).hasMessageContaining("write ocf:PROVIDER:TYPE");
        assertThatThrownBy(() -> ref("lsb:apache2::8080")).hasMessageContaining("is not name=value");
        assertThatThrownBy(() -> ref("lsb:apache2::port=8080")).hasMessageContaining("lsb resources take no"
                + " parameters");
        assertThatThrownBy(() -> ref("ocf:heartbeat:IPaddr2::ip")).hasMessageContaining("write ::name=value");
        assertThatThrownBy(() -> ref("ocf:heartbeat:IPaddr2::ip=1::ip=2")).hasMessageContaining("given twice");
        assertThatThrownBy(() -> ref("ocf:heartbeat:IPaddr2::ip=1::op_timout=5s"))
                .hasMessageContaining("unknown option [op_timout]").hasMessageContaining("did you mean op_timeout?");
        assertThatThrownBy(() -> ref("systemd:x::op_timeout=soon")).hasMessageContaining("op_timeout of resource"
                + " [systemd:x::op_timeout=soon]: timeout [soon] does not parse");
        assertThatThrownBy(() -> ref("ocf:heartbeat:IPaddr2::my-ip=1")).hasMessageContaining("OCF_RESKEY_my-ip");
        assertThatThrownBy(() -> ref("lsb:../../bin/sh")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ref("lsb::")).hasMessageContaining("names no lsb service");
    }

    @Test
    void theParserReportsClassErrorsWithFileAndLine() {
        String text = "node1 198.18.0.100 lsb:lighttpd\n# comment\nnode2 ocf:heartbeat:IPaddr2::ip=198.18.0.101::op_timeout=5x\n";
        HaresourcesParser.Result r = HaresourcesParser.parse(Path.of("/etc/ha.d/haresources"), text,
                List.of(NodeName.of("node1"), NodeName.of("node2")));
        assertThat(r.groups()).hasSize(1);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.format()).startsWith("/etc/ha.d/haresources:3: op_timeout of resource").contains("does not parse");
        });
    }

    /** A script's op_ options are taken out of its arguments; anything else stays the script's, in order. */
    @Test
    void aHeartbeatScriptTakesTheOpOptionsAndKeepsItsOwnArguments() {
        AgentRef.Heartbeat h = (AgentRef.Heartbeat) ref("labweb::8080::op_monitor_interval=5s::x=1::op_stop_timeout=2min");
        assertThat(h.args()).containsExactly("8080", "x=1");
        assertThat(h.timeouts().monitorInterval()).contains(java.time.Duration.ofSeconds(5));
        assertThat(h.timeouts().stop()).contains(java.time.Duration.ofMinutes(2));
        assertThat(((AgentRef.Heartbeat) ref("labweb::op_other=1")).args()).containsExactly("op_other=1");
        assertThat(HaresourcesParser.resource("drbddisk::r0::op_monitor_interval=5s").orElseThrow().agentArgs())
                .containsExactly("r0");
        assertThatThrownBy(() -> ref("labweb::op_timeout=1s::op_timeout=2s"))
                .hasMessage("[op_timeout] is given twice in resource [labweb::op_timeout=1s::op_timeout=2s]; keep one");
        assertThatThrownBy(() -> ref("labweb::op_monitor_interval=soon")).hasMessageStartingWith(
                "op_monitor_interval of resource [labweb::op_monitor_interval=soon]: timeout [soon] does not parse");
    }
}
