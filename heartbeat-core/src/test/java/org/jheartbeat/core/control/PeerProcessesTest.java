package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's process behind a control connection: from {@code ss}'s text, then from the real kernel table. */
class PeerProcessesTest {
    @TempDir
    Path dir;

    /** Rows as iproute2 6.1's {@code ss -x -p -n -H} prints them (a socat server and client, a datagram pair). */
    static final String SS = """
            u_dgr ESTAB 0      0                * 11481278 * 11481277 users:(("socat",pid=24320,fd=4))
            u_str ESTAB 0      0                * 11480495 * 0        users:(("cat",pid=24350,fd=8),("socat",pid=24349,fd=8))
            u_str ESTAB 0      0      /run/ctl.sock 11481288 * 11481287 users:(("java",pid=500,fd=6))
            u_str ESTAB 0      0                * 11481287 * 11481288 users:(("hb",pid=24348,fd=5))
            u_str ESTAB 0      0      /run/ctl.sock 11481290 * 11481289 users:(("java",pid=500,fd=7))
            u_str ESTAB 0      0                * 11481289 * 11481290 users:(("so\\"cat\\n",pid=24400,fd=3))
            u_str ESTAB 0      0      /run/other.sock 11481292 * 11481291 users:(("java",pid=500,fd=9))
            u_str ESTAB 0      0                * 11481291 * 11481292 users:(("curl",pid=24500,fd=3))
            u_str ESTAB 0      0      /run/ctl.sock 11481294 * 11481293 users:(("java",pid=777,fd=6))
            u_str ESTAB 0      0                * 11481293 * 11481294 users:(("intruder",pid=24600,fd=3))
            garbage line
            """;

    @Test
    void theClientsOfThisDaemonsSocketAreNamedAndNoOthers() {
        assertThat(PeerProcesses.clients(SS, "/run/ctl.sock", 500)).containsExactly(
                new PeerProcesses.Holder("hb", 24348), new PeerProcesses.Holder("so\\\"cat\\n", 24400));
        assertThat(PeerProcesses.clients(SS, "/run/ctl.sock", 501)).isEmpty();
        assertThat(PeerProcesses.clients("", "/run/ctl.sock", 500)).isEmpty();
        assertThat(PeerProcesses.holders("users:((\"a b\u001b\",pid=12,fd=3),(\"c\",pid=99999999999,fd=1))"))
                .containsExactly(new PeerProcesses.Holder("a?b?", 12));
    }

    /** A real socat connected to a real Unix socket: the kernel's table names its pid; another user's name none. */
    @Test
    void aRealClientIsFoundByItsPid() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/socat")), "needs socat");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/ss")) || Files.isExecutable(Path.of("/bin/ss")), "needs ss");
        Path sock = dir.resolve("control.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            Process client = new ProcessBuilder("socat", "-", "UNIX-CONNECT:" + sock).start();
            try (SocketChannel accepted = server.accept()) {
                String me = System.getProperty("user.name");
                String seen = new PeerProcesses().describe(sock, ProcessHandle.current().pid(), me);
                assertThat(seen).isEqualTo(", uid " + Files.getAttribute(Path.of("/proc/self"), "unix:uid") + ", pid "
                        + client.pid() + " (socat)");
                assertThat(new PeerProcesses().describe(sock, ProcessHandle.current().pid(), "no-such-user"))
                        .isEmpty();
                assertThat(new PeerProcesses().describe(dir.resolve("other.sock"), ProcessHandle.current().pid(), me))
                        .isEmpty();
            } finally {
                client.getOutputStream().close();
                client.destroy();
                assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
        }
    }
}
