package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.director.check.CheckResult;
import org.jheartbeat.director.config.LdirectordParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's control requests: status in ipvsadm's layout, reload refused at file:line or applied. */
class DirectorDaemonTest {
    @TempDir
    Path dir;

    @Test
    void statusAndReloadThroughTheSocket() throws Exception {
        Path cfg = dir.resolve("ldirectord.cf");
        String text = "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate\n\tchecktype=on\n\tscheduler=lc\n";
        Files.writeString(cfg, text);
        FakeBackend backend = new FakeBackend();
        Path sock = dir.resolve("lvs.sock");
        try (DirectorDaemon d = new DirectorDaemon(new LdirectordParser().parse(cfg).config().orElseThrow(), backend,
                v -> (t, to) -> CheckResult.up(0), sock, a -> { })) {
            assertThat(ControlSocket.request(sock, "status DEFAULT 0 text", 10_000)).isEqualTo("OK\n"
                    + "IP Virtual Server version 1.2.1 (size=4096)\n"
                    + "Prot LocalAddress:Port Scheduler Flags\n"
                    + "  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n"
                    + "TCP  198.18.0.100:80 lc\n"
                    + "  -> 198.18.0.21:80               Route   1      0          0         \n");
            Files.writeString(cfg, text + "\treal=198.18.0.22:80 gat\n");
            assertThat(ControlSocket.request(sock, "reload", 10_000)).isEqualTo(
                    "ERR configuration refused, the running one is kept\n" + cfg
                            + ":5: real: forwarding method must be gate, masq or ipip, not 'gat'\n");
            Files.writeString(cfg, text + "\treal=198.18.0.22:80 gate\n");
            // its commands run as root: a file others may write is refused until only root may write it
            Files.setPosixFilePermissions(cfg, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-r--"));
            assertThat(ControlSocket.request(sock, "reload", 10_000)).isEqualTo(
                    "ERR configuration refused, the running one is kept\n" + cfg + ":0: ldirectord.cf is mode 664,"
                            + " writable by others than root, and its contents run as root; chmod go-w " + cfg + "\n");
            Files.setPosixFilePermissions(cfg, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            assertThat(ControlSocket.request(sock, "reload", 10_000)).isEqualTo("OK\n");
            assertThat(backend.commands()).endsWith("ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.22:80 -g -w 1");
            assertThat(ControlSocket.request(sock, "status STATS 0 json", 10_000)).startsWith("OK\n{\"services\":[");
            assertThat(ControlSocket.request(sock, "status BOGUS", 10_000)).startsWith("ERR bad request");
        }
        assertThat(Files.exists(sock)).isFalse();
        assertThat(backend.read().services()).isEmpty();
    }
}
