package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb config check} passes only media the daemon can start on this machine, and the daemon refuses
 * the others with exit 2 (which systemd does not restart) and the ha.cf line, before anything starts:
 * an interface that does not exist, a serial device that does not exist or is not a serial line, a port
 * another program holds (real interfaces, real devices, a real bound socket).
 */
class MediaCheckTest {
    @TempDir
    Path dir;

    private Path cfg(ConfigDirBuilder b) {
        return ConfigCheckCommandTest.withLabweb(b.writeTo(dir.resolve("cfg")));
    }

    private HbRun check(Path cfg) {
        return HbRun.hb("config", "check", "--config-dir", cfg.toString(), "--node-name", "node1",
                "--state-dir", dir.resolve("state").toString());
    }

    private HbRun daemon(Path cfg) {
        return HbRun.hb("daemon", "--config-dir", cfg.toString(), "--state-dir", dir.resolve("state").toString(),
                "--node-name", "node1");
    }

    @Test
    void aUcastInterfaceThatDoesNotExistIsAnErrorOfTheCheckAndOfTheDaemonsStart() {
        Path cfg = cfg(ConfigDirBuilder.validHere().haCfReplace("ucast lo 127.0.0.2", "ucast eth9 198.18.1.2"));
        String line = cfg.resolve("ha.cf") + ":6: ucast eth9 198.18.1.2: interface eth9 does not exist on this"
                + " machine; name one that does (ip -br link)";
        HbRun r = check(cfg);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).startsWith(line + "\n");
        assertThat(r.out() + r.err()).doesNotContain("warning: interface eth9");

        HbRun d = daemon(cfg);
        assertThat(d.code()).as(d.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(d.err()).contains(line).contains("not starting").doesNotContain("cannot start heartbeat media");
    }

    @Test
    void aBcastInterfaceThatDoesNotExistIsAnError() {
        Path cfg = cfg(ConfigDirBuilder.validHere().haCfReplace("ucast lo 127.0.0.2", "bcast eth9"));
        HbRun r = check(cfg);
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("ha.cf") + ":6: bcast eth9: interface eth9 does not exist on this"
                + " machine");
    }

    @Test
    void aSerialDeviceThatDoesNotExistIsOneErrorOfTheCheckAndOfTheDaemonsStart() {
        Path missing = dir.resolve("ttyS9");
        Path cfg = cfg(ConfigDirBuilder.validHere().haCfAppend("serial " + missing + "\n"));
        String line = cfg.resolve("ha.cf") + ":11: serial " + missing + ": serial device " + missing + " does not"
                + " exist; name the port the null-modem cable is plugged into (ls /dev/ttyS* /dev/ttyUSB*), or remove"
                + " the serial line";
        HbRun r = check(cfg);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).startsWith(line + "\n");
        assertThat(r.out() + r.err()).doesNotContain(":11: warning");
        HbRun d = daemon(cfg);
        assertThat(d.code()).as(d.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(d.err()).contains(line);
    }

    @Test
    void aCharacterDeviceThatIsNotASerialLineIsAnError() {
        Path cfg = cfg(ConfigDirBuilder.validHere().haCfAppend("serial /dev/null\n"));
        HbRun r = check(cfg);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("ha.cf") + ":11: serial /dev/null: cannot open serial device"
                + " /dev/null as a serial line");
    }

    @Test
    void aPortAnotherProgramHoldsIsAnErrorWhenNoDaemonRuns() throws Exception {
        try (DatagramSocket other = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            int port = other.getLocalPort();
            Path cfg = cfg(ConfigDirBuilder.validHere().haCfReplace("udpport 694", "udpport " + port));
            HbRun r = check(cfg);
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.CONFIG);
            assertThat(r.err()).contains(cfg.resolve("ha.cf") + ":6: ucast lo 127.0.0.2: cannot bind UDP 127.0.0.1:"
                    + port + " (").contains("another program uses this port (ss -ulpn 'sport = :" + port + "' names it)");
        }
    }

    @Test
    void theSameMediaOnAMachineThatHasThemPass() {
        HbRun r = check(cfg(ConfigDirBuilder.validHere()));
        assertThat(r.code()).as(r.out() + r.err()).isZero();
    }
}
