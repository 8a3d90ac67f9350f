package org.jheartbeat.resources.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IpAddrSpecTest {
    private static IpAddrSpec spec(String ip, Integer prefix, String iface, String bcast) {
        return new IpAddrSpec(ip, prefix == null ? OptionalInt.empty() : OptionalInt.of(prefix),
                Optional.ofNullable(iface), Optional.ofNullable(bcast));
    }

    @Test
    void allForms() {
        assertThat(IpAddrSpec.parse("198.18.0.100")).isEqualTo(spec("198.18.0.100", null, null, null));
        assertThat(IpAddrSpec.parse("198.18.0.100/24")).isEqualTo(spec("198.18.0.100", 24, null, null));
        assertThat(IpAddrSpec.parse("198.18.0.100/24/eth0")).isEqualTo(spec("198.18.0.100", 24, "eth0", null));
        assertThat(IpAddrSpec.parse("198.18.0.100/24/eth0/198.18.0.255"))
                .isEqualTo(spec("198.18.0.100", 24, "eth0", "198.18.0.255"));
        assertThat(IpAddrSpec.parse("198.18.0.100/24/198.18.0.255"))
                .as("third part starting with a digit is the broadcast")
                .isEqualTo(spec("198.18.0.100", 24, null, "198.18.0.255"));
        assertThat(IpAddrSpec.parse("198.18.0.100//eth1")).isEqualTo(spec("198.18.0.100", null, "eth1", null));
        assertThat(IpAddrSpec.parse("198.18.0.100/255.255.254.0/eth0"))
                .isEqualTo(spec("198.18.0.100", 23, "eth0", null));
        assertThat(IpAddrSpec.parse("198.18.0.100/32/br-lan.10")).isEqualTo(spec("198.18.0.100", 32, "br-lan.10", null));
        assertThat(IpAddrSpec.parse("198.18.0.100/255.255.255.128/eth0:web"))
                .isEqualTo(new IpAddrSpec("198.18.0.100", OptionalInt.of(25), Optional.of("eth0"), Optional.empty(),
                        Optional.of("eth0:web")));
    }

    @Test
    void roundTripsThroughToString() {
        for (String text : List.of("198.18.0.100", "198.18.0.100/24", "198.18.0.100/24/eth0",
                "198.18.0.100/24/eth0/198.18.0.255", "198.18.0.100/24/198.18.0.255", "198.18.0.100//eth1", "198.18.0.100/24/eth0:web/198.18.0.255")) {
            assertThat(IpAddrSpec.parse(text)).hasToString(text);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"198.18.0", "198.18.0.256", "198.18.0.1.5", "198.18.0.-1", "198.18.0.01",
        "198.18..1", "a.b.c.d", "198.18.0.1/33", "198.18.0.1/-1", "198.18.0.1/24x", "198.18.0.1/255.0.255.0",
        "198.18.0.1/24/eth0/198.18.0.999", "198.18.0.1/24/198.18.0.255/extra", "198.18.0.1/24/eth0/1.2.3.4/x",
        "198.18.0.1/24/averyveryverylongname", "198.18.0.1/24/eth0:averylonglabel", "198.18.0.1/24/eth0:", "", "198.18.0.1/1234",
        "198.18.0.1/0/eth0", "198.18.0.1/0.0.0.0/eth0", "010.0.0.5", " 198.18.0.1", "198.18.0.1 "})
    void rejects(String text) {
        assertThatThrownBy(() -> IpAddrSpec.parse(text)).isInstanceOf(IpAddrSpecException.class)
                .hasMessageStartingWith("IPaddr [" + text + "]");
    }

    @Test
    void errorNamesTheBadOctet() {
        assertThatThrownBy(() -> IpAddrSpec.parse("198.18.0.256/24"))
                .hasMessage("IPaddr [198.18.0.256/24]: bad address: octet 256 > 255 in IPv4 address [198.18.0.256]");
    }

    @Test
    void resolveFillsInFromTheMostSpecificRoute() {
        RouteTable routes = RouteTable.parse("""
                default via 198.18.0.1 dev eth0 proto static
                198.18.0.0/16 dev eth1 proto kernel scope link src 198.18.1.2
                198.18.0.0/24 dev eth2 proto kernel scope link src 198.18.0.2
                """);
        assertThat(IpAddrSpec.parse("198.18.0.100").resolve(routes))
                .isEqualTo(new ResolvedIpAddr("198.18.0.100", 24, "eth2", Optional.empty()));
        assertThat(IpAddrSpec.parse("198.18.5.100/28").resolve(routes))
                .isEqualTo(new ResolvedIpAddr("198.18.5.100", 28, "eth1", Optional.empty()));
        assertThat(IpAddrSpec.parse("198.18.0.100//eth9").resolve(routes))
                .isEqualTo(new ResolvedIpAddr("198.18.0.100", 24, "eth9", Optional.empty()));
        assertThat(IpAddrSpec.parse("198.19.0.100/24/eth3").resolve(new RouteTable(List.of())))
                .as("fully specified: no lookup").hasToString("198.19.0.100/24 dev eth3");
    }

    @Test
    void resolveFailsWithoutAMatchingRoute() {
        RouteTable routes = RouteTable.parse("default via 198.18.0.1 dev eth0\n198.18.0.0/24 dev eth0 scope link\n");
        assertThatThrownBy(() -> IpAddrSpec.parse("198.19.0.100").resolve(routes))
                .isInstanceOf(IpAddrSpecException.class)
                .hasMessageContaining("no non-default route with a device contains 198.19.0.100");
    }
}
