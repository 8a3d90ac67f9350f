package org.jheartbeat.director.userspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The UDP flow table's rules: forged one-datagram flows make room for real clients, per-address bound, expiry. */
class UdpFlowTableTest {
    private static InetSocketAddress client(int host, int port) throws Exception {
        return new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) 198, 18, (byte) (host >> 8),
            (byte) host}), port);
    }

    private static Optional<String> admitAndPut(UdpFlowTable<String> t, InetSocketAddress c, long now) {
        UdpFlowTable.Admission<String> a = t.admit(c);
        assertThat(a).isInstanceOf(UdpFlowTable.Admit.class);
        t.put(c, c.toString(), now);
        return ((UdpFlowTable.Admit<String>) a).evicted();
    }

    @Test
    void aFullTableOfForgedSourcesMakesRoomForARealClientAndKeepsTalkingFlowsLongest() throws Exception {
        UdpFlowTable<String> t = new UdpFlowTable<>(100, 10, 300_000_000_000L);
        InetSocketAddress talker = client(1000, 5000);
        admitAndPut(t, talker, 0);
        assertThat(t.fromClient(talker, 1)).contains(talker.toString()); // its second datagram: talking
        for (int i = 0; i < 99; i++) {
            assertThat(admitAndPut(t, client(i, 40000), 2 + i)).isEmpty();
        }
        assertThat(t.size()).isEqualTo(100);
        // the real client takes the place of the oldest forged (one-datagram) flow, not of the talking one
        InetSocketAddress real = client(2000, 6000);
        assertThat(admitAndPut(t, real, 200)).contains(client(0, 40000).toString());
        assertThat(t.size()).isEqualTo(100);
        assertThat(t.fromClient(talker, 201)).isPresent();
        assertThat(t.fromClient(client(0, 40000), 202)).isEmpty();
        // a flood of new forged sources cycles through the one-datagram flows, never the talking ones
        for (int i = 100; i < 400; i++) {
            admitAndPut(t, client(i, 40000), 300 + i);
        }
        assertThat(t.fromClient(talker, 1000)).isPresent();
        assertThat(t.fromClient(real, 1001)).as("the real client's one-datagram flow was its turn").isEmpty();
    }

    @Test
    void oneAddressHoldsAtMostItsBoundAndExpiryFreesItsPlaces() throws Exception {
        UdpFlowTable<String> t = new UdpFlowTable<>(100, 3, 1_000);
        for (int port = 1; port <= 3; port++) {
            admitAndPut(t, client(7, port), 0);
        }
        assertThat(t.admit(client(7, 4))).isInstanceOf(UdpFlowTable.SourceFull.class);
        assertThat(t.admit(client(8, 4))).isEqualTo(new UdpFlowTable.Admit<String>(Optional.empty()));
        t.fromReal(client(7, 1), 600); // the real's answer keeps a flow alive
        assertThat(t.expire(999)).isEmpty();
        assertThat(t.expire(1_000)).containsExactlyInAnyOrder(client(7, 2).toString(), client(7, 3).toString());
        assertThat(t.size()).isEqualTo(1);
        assertThat(t.admit(client(7, 4))).isInstanceOf(UdpFlowTable.Admit.class);
        assertThat(t.expire(1_600)).containsExactly(client(7, 1).toString());
        assertThat(t.clear()).isEmpty();
    }
}
