package org.jheartbeat.core.media.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The subnet broadcast a {@code bcast} line falls back on when its interface's address carries none. */
class UdpEndpointsTest {
    private static String bc(String address, int prefix) throws Exception {
        return UdpEndpoints.subnetBroadcast(InetAddress.getByName(address), prefix).map(InetAddress::getHostAddress)
                .orElse("none");
    }

    @Test
    void theSubnetBroadcastHasEveryHostBitSet() throws Exception {
        assertThat(bc("198.18.30.1", 24)).isEqualTo("198.18.30.255");
        assertThat(bc("198.18.30.1", 15)).isEqualTo("198.19.255.255");
        assertThat(bc("198.18.30.1", 30)).isEqualTo("198.18.30.3");
        assertThat(bc("10.1.2.3", 0)).isEqualTo("255.255.255.255");
    }

    @Test
    void pointToPointSubnetsHaveNone() throws Exception {
        assertThat(bc("198.18.30.1", 31)).isEqualTo("none");
        assertThat(bc("198.18.30.1", 32)).isEqualTo("none");
        assertThat(bc("::1", 64)).isEqualTo("none");
    }
}
