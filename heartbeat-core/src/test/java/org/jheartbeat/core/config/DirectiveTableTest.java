package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DirectiveTableTest {
    /** Every directive of facts F.2, plus the udp alias. */
    private static final Set<String> HEARTBEAT_306 = Set.of("node", "keepalive", "deadtime", "warntime",
            "initdead", "deadping", "udpport", "baud", "bcast", "udp", "mcast", "ucast", "mcast6", "ucast6",
            "serial", "ping", "ping6", "ping_group", "auto_failback", "nice_failback", "hopfudge", "stonith",
            "stonith_host", "watchdog", "logfacility", "logfile", "debugfile", "use_logd", "conn_logd_time",
            "syslogmsgfmt", "log_badpack", "debug", "msgfmt", "compression", "compression_threshold",
            "traditional_compression", "max_rexmit_delay", "hbgenmethod", "uuidfrom", "realtime", "rtprio",
            "memreserve", "coredumps", "coreroot", "cluster", "quorum_server", "autojoin", "apiauth", "respawn",
            "failfast", "env", "use_apphbd", "pacemaker", "crm", "crm_daemon_dir", "crmd_spawns_pengine",
            "record_config_changes", "record_pengine_inputs", "enable_config_writes");

    @Test
    void hasExactlyOneRowPerHeartbeatDirective() {
        assertThat(Arrays.stream(DirectiveTable.values()).map(DirectiveTable::keyword))
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(HEARTBEAT_306);
    }

    @Test
    void wholeLineDirectivesAreHeartbeats() {
        assertThat(Arrays.stream(DirectiveTable.values()).filter(DirectiveTable::wholeLine)
                .map(DirectiveTable::keyword).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("stonith", "stonith_host", "apiauth", "respawn", "failfast",
                        "mcast", "mcast6", "ucast", "ucast6", "ping_group");
    }

    @Test
    void implementedSetIsTheR1Core() {
        assertThat(Arrays.stream(DirectiveTable.values()).filter(DirectiveTable::implemented)
                .map(DirectiveTable::keyword).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("keepalive", "deadtime", "warntime", "initdead", "udpport", "ucast",
                        "bcast", "udp", "node", "auto_failback", "logfile", "debugfile", "logfacility", "crm", "baud", "serial", "stonith", "stonith_host",
                        "pacemaker", "mcast", "deadping", "nice_failback", "ping", "ping_group", "respawn",
                        "watchdog");
    }

    @Test
    void everyRowIsDescribed() {
        assertThat(DirectiveTable.values()).allSatisfy(d -> assertThat(d.description()).isNotBlank());
        assertThat(DirectiveTable.KEEPALIVE.defaultValue()).contains("1000ms");
        assertThat(DirectiveTable.DEADTIME.defaultValue()).contains("30000ms");
        assertThat(DirectiveTable.NODE.defaultValue()).isEmpty();
    }

    @Test
    void lookupIsCaseSensitiveAndRejectsWhatHeartbeatRejects() {
        assertThat(DirectiveTable.lookup("keepalive")).contains(DirectiveTable.KEEPALIVE);
        assertThat(DirectiveTable.lookup("Keepalive")).isEmpty();
        assertThat(DirectiveTable.lookup("hbaping")).isEmpty();
        assertThat(DirectiveTable.lookup("normalpoll")).isEmpty();
    }
}
