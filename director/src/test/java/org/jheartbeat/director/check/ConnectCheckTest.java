package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConnectCheckTest {

    @Test
    void aListeningServerIsUpAndAClosedPortIsDownWithTheReason() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 1, lo)) {
            CheckResult up = Checks.forService("connect", "none")
                    .check(CheckTarget.of(new InetSocketAddress(lo, server.getLocalPort())), Duration.ofSeconds(5));
            assertThat(up.up()).isTrue();
        }
        try (ClosedPort closed = new ClosedPort()) {
            CheckResult down = new ConnectCheck().check(CheckTarget.of(closed.address()), Duration.ofSeconds(5));
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).containsIgnoringCase("refused");
        }
    }
}
