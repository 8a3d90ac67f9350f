package org.jheartbeat.director.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParser;
import org.junit.jupiter.api.Test;

/**
 * The LVS-DR topology kernel on {@code ip -j} text as iproute2 6.1 printed it in a namespace with a veth pair
 * (v0 198.18.7.1/24, v1 198.18.8.1/24, default via 198.18.7.254); DrTopologyIT runs the real {@code ip}.
 */
class DrTopologyTest {
    static final String ADDR = "[{\"ifindex\":1,\"ifname\":\"lo\",\"flags\":[\"LOOPBACK\",\"UP\",\"LOWER_UP\"],"
            + "\"mtu\":65536,\"addr_info\":[{\"family\":\"inet\",\"local\":\"127.0.0.1\",\"prefixlen\":8,"
            + "\"scope\":\"host\",\"label\":\"lo\"},{\"family\":\"inet6\",\"local\":\"::1\",\"prefixlen\":128,"
            + "\"scope\":\"host\"}]},{\"ifindex\":2,\"link\":\"v0\",\"ifname\":\"v1\",\"flags\":[\"UP\"],"
            + "\"addr_info\":[{\"family\":\"inet\",\"local\":\"198.18.8.1\",\"prefixlen\":24,\"scope\":\"global\","
            + "\"label\":\"v1\"},{\"family\":\"inet6\",\"local\":\"fe80::9cfb:80ff:fe88:4a21\",\"prefixlen\":64,"
            + "\"scope\":\"link\",\"tentative\":true}]},{\"ifindex\":3,\"link\":\"v1\",\"ifname\":\"v0\","
            + "\"addr_info\":[{\"family\":\"inet\",\"local\":\"198.18.7.1\",\"prefixlen\":24,\"scope\":\"global\","
            + "\"label\":\"v0\",\"valid_life_time\":4294967295}]}]";
    static final Map<String, String> ROUTES = Map.of(
            "198.18.7.21", "[{\"dst\":\"198.18.7.21\",\"dev\":\"v0\",\"prefsrc\":\"198.18.7.1\",\"flags\":[],"
                    + "\"uid\":0,\"cache\":[]}]",
            "198.18.8.21", "[{\"dst\":\"198.18.8.21\",\"dev\":\"v1\",\"prefsrc\":\"198.18.8.1\",\"flags\":[]}]",
            "198.19.1.21", "[{\"dst\":\"198.19.1.21\",\"gateway\":\"198.18.7.254\",\"dev\":\"v0\","
                    + "\"prefsrc\":\"198.18.7.1\",\"flags\":[],\"uid\":0,\"cache\":[]}]",
            "198.18.7.50", "[{\"dst\":\"198.18.7.50\",\"gateway\":\"198.18.7.254\",\"dev\":\"v0\",\"flags\":[]}]",
            "198.18.7.1", "[{\"type\":\"local\",\"dst\":\"198.18.7.1\",\"dev\":\"lo\",\"prefsrc\":\"198.18.7.1\","
                    + "\"flags\":[],\"uid\":0,\"cache\":[\"local\"]}]");

    private static final Path FILE = Path.of("/etc/ha.d/ldirectord.cf");

    static LdirectordConfig config(String text) {
        return new LdirectordParser(n -> Optional.empty()).parse(FILE, text).config().orElseThrow();
    }

    static List<String> warnings(String text) throws IOException {
        List<IpJson.InterfaceAddress> addrs = IpJson.addresses(ADDR);
        return DrTopology.warnings(config(text), addrs, a -> Optional.ofNullable(ROUTES.get(a.getHostAddress()))
                .map(j -> {
                    try {
                        return IpJson.route(j);
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                })).stream().map(ConfigDiagnostic::format).toList();
    }

    @Test
    void ipAddrIsReadPerInterfaceWithPrefixAndScope() throws IOException {
        assertThat(IpJson.addresses(ADDR)).extracting(Object::toString).containsExactly("127.0.0.1/8 on lo",
                "0:0:0:0:0:0:0:1/128 on lo", "198.18.8.1/24 on v1", "fe80:0:0:0:9cfb:80ff:fe88:4a21/64 on v1",
                "198.18.7.1/24 on v0");
        assertThat(IpJson.route(ROUTES.get("198.19.1.21")))
                .isEqualTo(new IpJson.Route("v0", Optional.of(InetAddress.getByName("198.18.7.254")), false));
        assertThat(IpJson.route(ROUTES.get("198.18.7.1")).local()).isTrue();
    }

    @Test
    void aGateRealOnTheVipsSegmentThisHostOrAnotherMethodIsFine() throws IOException {
        assertThat(warnings("virtual=198.18.7.100:80\n    real=198.18.7.21:80 gate\n    real=198.18.7.1:80 gate\n"
                + "    real=198.19.1.21:8080 masq\n    real=198.19.1.21:80 ipip\n")).isEmpty();
    }

    @Test
    void aGateRealOffEveryConnectedSubnetNamesTheRealTheSubnetsTheGatewayAndTheVip() throws IOException {
        assertThat(warnings("virtual=198.18.7.100:80\n    real=198.18.7.21:80 gate\n    real=198.19.1.21:80 gate\n"))
                .containsExactly(FILE + ":3: warning: real 198.19.1.21:80 (gate: LVS-DR) is in none of this director's"
                        + " directly connected subnets (198.18.8.1/24 on v1, 198.18.7.1/24 on v0); this director reaches"
                        + " it through gateway 198.18.7.254 on v0: LVS-DR rewrites only the MAC address, so the real"
                        + " must be on the L2 segment of the VIP 198.18.7.100 on v0; put the real on that segment (same"
                        + " switch or VLAN, an address in that subnet), or use ipip (LVS-TUN) or masq (LVS-NAT) for a"
                        + " real elsewhere");
    }

    @Test
    void aGateRealOnAnotherInterfacesSubnetThanTheVipsIsAWarningNamingBoth() throws IOException {
        assertThat(warnings("virtual=198.18.7.100:80\n    real=198.18.8.21:80 gate\n")).singleElement().asString()
                .contains(":2: warning: real 198.18.8.21:80 (gate: LVS-DR) is in 198.18.8.1/24 on v1 but the VIP"
                        + " 198.18.7.100 on v0");
    }

    @Test
    void aGateRealInTheSubnetButRoutedThroughAGatewayIsAWarning() throws IOException {
        assertThat(warnings("virtual=198.18.7.100:80\n    real=198.18.7.50:80 gate\n")).singleElement().asString()
                .contains("real 198.18.7.50:80 (gate: LVS-DR) is in 198.18.7.1/24 on v0 but this director's route to"
                        + " it goes through gateway 198.18.7.254 on v0 (see ip route get 198.18.7.50)");
    }

    @Test
    void noRouteAtAllIsSaid() throws IOException {
        assertThat(warnings("virtual=198.18.7.100:80\n    real=198.19.9.9:80 gate\n")).singleElement().asString()
                .contains("; this director has no route to it:");
    }

    @Test
    void aVipNotYetHeldNorInASubnetIsSaidSo() throws IOException {
        assertThat(warnings("virtual=198.18.9.100:80\n    real=198.19.1.21:80 gate\n")).singleElement().asString()
                .contains("the L2 segment of the VIP 198.18.9.100 (on no interface or subnet of this director yet)");
    }

    @Test
    void textThatIsNotIpsJsonIsAnIoError() {
        assertThatThrownBy(() -> IpJson.addresses("Object \"addr\" is unknown")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> IpJson.addresses("[{\"ifname\":\"v0\",\"addr_info\":[")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> IpJson.route("[]")).isInstanceOf(IOException.class);
    }
}
