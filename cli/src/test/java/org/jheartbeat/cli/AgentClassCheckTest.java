package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input for agent classes: {@code hb config check}, {@code hb resources check} and the
 * daemon on haresources lines naming an unknown class, agent or OCF parameter, a missing required one,
 * a timeout that does not parse; and {@code hb resources describe}. Runs the real OCF agents' meta-data.
 */
class AgentClassCheckTest {
    @TempDir
    Path dir;

    @BeforeEach
    void resourceAgentsInstalled() {
        assumeTrue(Files.isExecutable(Path.of("/usr/lib/ocf/resource.d/heartbeat/IPaddr2")),
                "resource-agents is installed (scripts/setup.sh)");
    }

    private Path cfg(String haresources) {
        return ConfigDirBuilder.validHere().haresources(haresources).writeTo(dir);
    }

    private HbRun check(Path cfg) {
        return HbRun.hb("config", "check", "--config-dir", cfg.toString());
    }

    private void refused(String haresources, String expected) {
        Path cfg = cfg(haresources);
        HbRun r = check(cfg);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":1: " + expected)
                .doesNotContain("Exception").doesNotContain("\tat ");
        HbRun rc = HbRun.hb("resources", "check", "--config-dir", cfg.toString());
        assertThat(rc.code()).as("hb resources check agrees").isEqualTo(ExitCodes.CONFIG);
        assertThat(rc.err()).contains(cfg.resolve("haresources") + ":1: " + expected);
    }

    @Test
    void unknownOcfParameterWithDidYouMean() {
        refused("node1 ocf:heartbeat:IPaddr2::ip=198.18.0.100::cidr_netmsk=24\n",
                "unknown parameter [cidr_netmsk] of ocf:heartbeat:IPaddr2 in"
                        + " [ocf:heartbeat:IPaddr2::ip=198.18.0.100::cidr_netmsk=24] (did you mean cidr_netmask?);"
                        + " its parameters are ip, nic, cidr_netmask,");
    }

    @Test
    void missingRequiredOcfParameter() {
        refused("node1 ocf:heartbeat:Filesystem::device=/dev/loop7::fstype=ext4\n",
                "missing required parameter [directory] of ocf:heartbeat:Filesystem in"
                        + " [ocf:heartbeat:Filesystem::device=/dev/loop7::fstype=ext4]; add ::directory=VALUE (mount point)");
    }

    @Test
    void unknownOcfAgentWithDidYouMean() {
        refused("node1 ocf:heartbeat:Filesytem::device=/dev/loop7\n", "unknown OCF agent ocf:heartbeat:Filesytem in"
                + " [ocf:heartbeat:Filesytem::device=/dev/loop7]: no executable /usr/lib/ocf/resource.d/heartbeat/Filesytem"
                + " (did you mean Filesystem?); install resource-agents or correct the name");
    }

    @Test
    void unknownClassAndBadTimeoutAndMissingLsbScript() {
        refused("node1 lbs:lighttpd\n", "unknown resource class [lbs] in [lbs:lighttpd] (did you mean lsb?)");
        refused("node1 ocf:heartbeat:IPaddr2::ip=198.18.0.100::op_timeout=fast\n",
                "op_timeout of resource [ocf:heartbeat:IPaddr2::ip=198.18.0.100::op_timeout=fast]: timeout [fast]"
                        + " does not parse: write a whole number with ms, s, min or h, e.g. 90s or 2min");
        refused("node1 lsb:no-such-service-here\n", "no LSB init script /etc/init.d/no-such-service-here for"
                + " [lsb:no-such-service-here]");
    }

    @Test
    void badMonitorOptionsAreRefusedWithFileLine() {
        refused("node1 ocf:heartbeat:IPaddr2::ip=198.18.0.100::op_restart_limit=lots\n",
                "op_restart_limit of resource [ocf:heartbeat:IPaddr2::ip=198.18.0.100::op_restart_limit=lots]: restart"
                        + " limit [lots] does not parse: write a whole number from 0 to 1000");
        refused("node1 ocf:heartbeat:IPaddr2::ip=198.18.0.100::op_monitor_intervall=5s\n",
                "unknown option [op_monitor_intervall] in resource [ocf:heartbeat:IPaddr2::ip=198.18.0.100"
                        + "::op_monitor_intervall=5s] (did you mean op_monitor_interval?)");
        HbRun r = check(cfg("node1 ocf:heartbeat:IPaddr2::ip=198.18.0.100::cidr_netmask=24::nic=lo"
                + "::op_monitor_interval=off::op_restart_limit=0::op_restart_window=1h\n"));
        assertThat(r.code()).as(r.err()).isZero();
    }

    @Test
    void anOcfAddressCountsForTheOneAddressOneGroupRule() {
        Path cfg = cfg("node1 ocf:heartbeat:IPaddr2::ip=198.18.0.100::cidr_netmask=24::nic=lo\n"
                + "node2 198.18.0.100/24/lo\n");
        HbRun r = check(cfg);
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":2: address 198.18.0.100 is also in the group on line 1");
        refused("node1 drbddisk::r0::r1\n", "drbddisk takes one DRBD resource name, [drbddisk::r0::r1] gives 2");
    }

    @Test
    void aValidOcfLineChecksClean() {
        HbRun r = check(cfg("node1 ocf:heartbeat:IPaddr2::ip=198.18.0.100::cidr_netmask=24::nic=lo::op_stop_timeout=30s\n"));
        assertThat(r.code()).as(r.err()).isZero();
    }

    @Test
    void theDaemonRefusesToStartWithAnAgentClassError() {
        Path cfg = cfg("node1 ocf:heartbeat:IPaddr2::ip=198.18.0.100::cidr_netmsk=24\n");
        HbRun r = HbRun.hb("daemon", "--config-dir", cfg.toString(), "--state-dir", dir.resolve("state").toString(),
                "--node-name", "node1");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":1: unknown parameter [cidr_netmsk]")
                .contains("not starting").doesNotContain("the daemon starts anyway");
    }

    @Test
    void describePrintsTheParametersFromMetaData() {
        HbRun r = HbRun.hb("resources", "describe", "Filesystem");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("ocf:heartbeat:Filesystem: Manages filesystem mounts")
                .containsPattern("\\ndevice +yes +\"\" +block device")
                .containsPattern("\\nforce_unmount +no +true +Kill processes before unmount")
                .contains("timeouts: start 60s, stop 60s, monitor 40s")
                .contains("haresources: ocf:heartbeat:Filesystem::device=...::directory=...::fstype=...");
        HbRun typo = HbRun.hb("resources", "describe", "ocf:heartbeat:IPadr2");
        assertThat(typo.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(typo.err()).contains("(did you mean IPaddr2?)").doesNotContain("Exception");
        HbRun lsb = HbRun.hb("resources", "describe", "lsb:lighttpd");
        assertThat(lsb.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(lsb.err()).contains("lsb:lighttpd is not an OCF agent");
    }
}
