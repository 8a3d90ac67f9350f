package org.jheartbeat.core.media.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jheartbeat.core.config.MediumDecl;
import org.awaitility.Awaitility;
import org.jheartbeat.core.wire.WirePacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The mcast medium on the loopback interface only (group 239.255.77.x, TTL 0: nothing can leave the
 * host): the receive socket joins the group on the named interface and the send socket sends to it.
 * (LOOP cannot be shown on {@code lo}, whose "wire" delivers every packet back; the namespace lab's
 * mcast tests run with loop 0 between two hosts.)
 */
class UdpMcastMediumTest {
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final List<UdpMedium> opened = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(UdpMedium::close);
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private UdpMedium start(MediumDecl.Mcast decl, List<String> received) throws IOException {
        UdpMedium m = new UdpMedium(decl, group);
        m.start((link, source, frame) -> received.add(link + " " + new String(frame, StandardCharsets.US_ASCII)));
        opened.add(m);
        return m;
    }

    private static WirePacket packet(String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        return new WirePacket(b, b);
    }

    @Test
    void withLoopOnAReceiverOnTheSameInterfaceGetsTheBeatsAndTheSenderItsOwn() throws IOException {
        List<String> a = new CopyOnWriteArrayList<>();
        List<String> b = new CopyOnWriteArrayList<>();
        UdpMedium sender = start(new MediumDecl.Mcast("lo", "239.255.77.1", 47694, 0, true, 1), a);
        start(new MediumDecl.Mcast("lo", "239.255.77.1", 47694, 0, true, 2), b);
        assertThat(sender.describe()).isEqualTo("mcast lo 239.255.77.1:47694 ttl=0 loop=1");
        Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            sender.send(packet("beat"));
            assertThat(b).contains("lo beat");
            assertThat(a).as("loop 1: the sender hears itself").contains("lo beat");
        });
    }

    @Test
    void aMissingInterfaceFailsAtStartWithItsName() {
        UdpMedium m = new UdpMedium(new MediumDecl.Mcast("nosuch0", "239.255.77.3", 47696, 1, false, 7), group);
        assertThatThrownBy(() -> m.start((l, s, f) -> { })).isInstanceOf(IOException.class)
                .hasMessageContaining("interface nosuch0 does not exist");
    }
}
