package org.jheartbeat.resources.ip;

import static org.assertj.core.api.Assertions.assertThat;

import org.jheartbeat.core.config.Ipv4;
import org.junit.jupiter.api.Test;

class RouteTableTest {
    /** Shaped like `ip -4 -o route show` on a multi-homed Debian 12 host (iproute2 6.1). */
    private static final String OUTPUT = """
            default via 198.18.0.1 dev eth0 proto dhcp src 198.18.0.20 metric 100\s
            198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.20 metric 100\s
            198.18.0.1 dev eth0 proto dhcp scope link src 198.18.0.20 metric 100\s
            198.18.4.0/22 via 198.18.0.254 dev eth0 proto static\s
            198.18.4.0/24 dev eth1 proto kernel scope link src 198.18.4.7 linkdown\s
            198.18.4.0/24 dev eth2 proto kernel scope link src 198.18.4.8 metric 50\s
            unreachable 198.18.8.0/24 proto static\s
            blackhole 198.18.9.0/24\s
            unicast 198.18.10.0/24 dev tun0 proto boot scope link\s
            198.18.12.0/24 proto static \\\tnexthop via 198.18.0.2 dev eth0 weight 1 \\\tnexthop via 198.18.0.3 dev eth1 weight 1\s
            198.18.200.0/33 dev eth0\s
            nonsense line here
            """;

    @Test
    void keepsOnlyNonDefaultUnicastRoutesWithADevice() {
        RouteTable table = RouteTable.parse(OUTPUT);
        assertThat(table.routes()).extracting(Route::toString).containsExactly(
                "198.18.0.0/24 dev eth0 metric 100",
                "198.18.0.1/32 dev eth0 metric 100",
                "198.18.4.0/22 dev eth0",
                "198.18.4.0/24 dev eth1",
                "198.18.4.0/24 dev eth2 metric 50",
                "198.18.10.0/24 dev tun0");
    }

    @Test
    void longestPrefixThenLowestMetricThenFirst() {
        RouteTable table = RouteTable.parse(OUTPUT);
        assertThat(table.bestRouteFor(Ipv4.parse("198.18.0.100"))).get().hasToString("198.18.0.0/24 dev eth0 metric 100");
        assertThat(table.bestRouteFor(Ipv4.parse("198.18.0.1"))).get().hasToString("198.18.0.1/32 dev eth0 metric 100");
        assertThat(table.bestRouteFor(Ipv4.parse("198.18.5.9"))).get().hasToString("198.18.4.0/22 dev eth0");
        assertThat(table.bestRouteFor(Ipv4.parse("198.18.4.9"))).get().hasToString("198.18.4.0/24 dev eth1");
        assertThat(table.bestRouteFor(Ipv4.parse("198.18.10.3"))).get().hasToString("198.18.10.0/24 dev tun0");
        assertThat(table.bestRouteFor(Ipv4.parse("198.18.8.1"))).as("unreachable is skipped").isEmpty();
        assertThat(table.bestRouteFor(Ipv4.parse("198.18.12.1"))).as("multipath is skipped").isEmpty();
        assertThat(table.bestRouteFor(Ipv4.parse("198.19.0.1"))).as("default is never used").isEmpty();
    }

    @Test
    void emptyOutput() {
        assertThat(RouteTable.parse("").routes()).isEmpty();
    }
}
