package org.jheartbeat.stonith.device.external;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs ExternalDevice against real scripts: one written here that speaks README.external, and the installed external/ssh. */
class ExternalDeviceTest {
    private static final Duration T = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private Path log;

    @BeforeEach
    void writePlugin() throws IOException {
        log = dir.resolve("calls.log");
        plugin("fake", """
                #!/bin/sh
                echo "$1 $2 hostlist=$hostlist tag=$HA_LOGTAG" >> %s
                case $1 in
                getconfignames) echo "hostlist"; echo "ipaddr"; exit 0;;
                gethosts) for h in $hostlist; do echo $h; done; exit 0;;
                status) exit ${status_code:-0};;
                reset) [ "$2" = "node2" ] && exit 0; exit 1;;
                on) exit 0;;
                off) sleep 30; exit 0;;
                *) exit 1;;
                esac
                """.formatted(log), "rwxr-xr-x");
    }

    private Path plugin(String name, String body, String perms) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
        return p;
    }

    private ExternalDevice device(String name, Duration resetTimeout) throws StonithConfigException {
        return new ExternalDevice(name, dir, new OsProcessRunner(), T, resetTimeout);
    }

    @Test
    void configNamesComeFromGetconfignames() throws Exception {
        ExternalDevice d = device("fake", T);
        assertThat(d.type()).isEqualTo("external/fake");
        assertThat(d.configNames()).containsExactly("hostlist", "ipaddr");
    }

    @Test
    void paramsArriveAsEnvironmentAndHostsAreLowerCased() throws Exception {
        ExternalDevice d = device("fake", T);
        d.configure(Map.of("hostlist", "Node1 node2", "ipaddr", "10.0.0.1"));
        assertThat(d.hostList()).containsExactly("node1", "node2");
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "NODE2")).isEqualTo(StonithResult.OK);
        assertThat(Files.readAllLines(log)).contains("reset node2 hostlist=Node1 node2 tag=external/fake");
    }

    @Test
    void exitCodesMapAsClusterGlue() throws Exception {
        // off sleeps 30 s and times out; reset and on exit at once, within the timeout even on a loaded machine
        ExternalDevice d = device("fake", Duration.ofSeconds(5));
        d.configure(Map.of("hostlist", "node1 node2", "status_code", "2"));
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "node1")).isEqualTo(StonithResult.RESETFAIL);
        assertThat(d.reset(ResetRequest.POWER_ON, "node1")).isEqualTo(StonithResult.OK);
        assertThat(d.reset(ResetRequest.POWER_OFF, "node1")).isEqualTo(StonithResult.TIMEOUT);
        assertThat(d.status()).isEqualTo(StonithResult.ACCESS); // status code passed through
    }

    @Test
    void refusesGroupOrOtherWritableScript() throws Exception {
        plugin("loose", "#!/bin/sh\necho hostlist\n", "rwxrwxr-x");
        assertThatThrownBy(() -> device("loose", T)).isInstanceOf(StonithConfigException.class)
                .hasMessageContaining("writable by group or others");
        plugin("loose2", "#!/bin/sh\necho hostlist\n", "rwxr-xrwx");
        assertThatThrownBy(() -> device("loose2", T)).hasMessageContaining("security");
    }

    @Test
    void refusesMissingNonExecutableAndBadNames() throws Exception {
        assertThatThrownBy(() -> device("nothere", T)).hasMessageContaining("does not exist");
        plugin("noexec", "#!/bin/sh\necho hostlist\n", "rw-r--r--");
        assertThatThrownBy(() -> device("noexec", T)).hasMessageContaining("not executable");
        assertThatThrownBy(() -> device("../fake", T)).hasMessageContaining("not a plain file name");
        plugin("broken", "#!/bin/sh\nexit 3\n", "rwxr-xr-x");
        assertThatThrownBy(() -> device("broken", T)).hasMessageContaining("getconfignames' failed");
    }

    @Test
    void refusesParameterNamesThatAreNotEnvironmentNames() throws Exception {
        ExternalDevice d = device("fake", T);
        assertThatThrownBy(() -> d.configure(Map.of("host-list", "a"))).isInstanceOf(StonithConfigException.class);
        assertThatThrownBy(() -> d.configure(Map.of("PATH", "/x"))).isInstanceOf(StonithConfigException.class);
    }

    @Test
    void argvIsScriptOpHost() throws Exception {
        var runner = new RecordingProcessRunner()
                .on(List.of(dir.resolve("fake").toString(), "getconfignames"), ProcessResult.exited(0, "hostlist\n"));
        ExternalDevice d = new ExternalDevice("fake", dir, runner, T, T);
        d.configure(Map.of("hostlist", "a b"));
        d.reset(ResetRequest.POWER_OFF, "B");
        assertThat(runner.argvs().get(1)).containsExactly(dir.resolve("fake").toString(), "off", "b");
        assertThat(runner.specs().get(1).env()).containsEntry("hostlist", "a b")
                .containsEntry("HA_LOGTAG", "external/fake");
        assertThat(runner.specs().get(1).env().get("PATH")).startsWith("/usr/share/cluster-glue:");
    }

    /** The installed cluster-glue external/ssh: getconfignames, gethosts, status and a refused reset, no ssh made. */
    @Test
    void drivesRealClusterGlueSshPlugin() throws Exception {
        assumeThat(Files.isExecutable(ExternalDevice.DEFAULT_PLUGIN_DIR.resolve("ssh"))).isTrue();
        ExternalDevice d = new ExternalDevice("ssh");
        assertThat(d.configNames()).containsExactly("hostlist");
        d.configure(Map.of("hostlist", "NodeA,nodeb"));
        assertThat(d.hostList()).containsExactly("nodea", "nodeb");
        // not in hostlist: the script itself refuses (exit 1) without running ssh
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodec")).isEqualTo(StonithResult.RESETFAIL);
        assertThat(d.reset(ResetRequest.POWER_ON, "nodea")).isEqualTo(StonithResult.RESETFAIL);
    }

    @Test
    void readsRealClusterGlueNutConfigNames() throws Exception {
        assumeThat(Files.isExecutable(ExternalDevice.DEFAULT_PLUGIN_DIR.resolve("nut"))).isTrue();
        assertThat(new ExternalDevice("nut").configNames()).startsWith("hostname", "ups", "username", "password");
    }
}
