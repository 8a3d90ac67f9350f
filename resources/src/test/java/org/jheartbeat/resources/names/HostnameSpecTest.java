package org.jheartbeat.resources.names;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.resources.ResourceAgentException;
import org.junit.jupiter.api.Test;

class HostnameSpecTest {
    private static HostnameSpec parse(String token) {
        List<String> parts = List.of(token.split("::"));
        return HostnameSpec.parse(parts.subList(1, parts.size()), token);
    }

    @Test
    void readsEveryOption() {
        HostnameSpec s = parse("Hostname::Node1::address=198.18.0.100::netbios=yes::dns=node1.townhall.lan"
                + "::dns_server=198.18.0.10::dns_home=198.18.0.1::dns_key=/etc/ha.d/ddns.key::dns_zone=townhall.lan"
                + "::dns_ttl=30::hostname=yes");
        assertThat(s.name()).isEqualTo("node1");
        assertThat(s.address()).contains("198.18.0.100");
        assertThat(s.netbios()).contains("NODE1");
        assertThat(s.hostname()).isTrue();
        assertThat(s.dns()).contains(new HostnameSpec.Dns("node1.townhall.lan.", "198.18.0.10", "198.18.0.1",
                Optional.of(Path.of("/etc/ha.d/ddns.key")), Optional.of("townhall.lan."), 30));
    }

    @Test
    void defaultsAndExplicitNetbiosName() {
        HostnameSpec s = parse("Hostname::node1::address=198.18.0.100::netbios=fileserver::dns=node1.townhall.lan."
                + "::dns_server=198.18.0.10::dns_home=198.18.0.1");
        assertThat(s.netbios()).contains("FILESERVER");
        assertThat(s.hostname()).isFalse();
        assertThat(s.dns().orElseThrow().ttl()).isEqualTo(HostnameSpec.DEFAULT_TTL);
        assertThat(s.dns().orElseThrow().keyFile()).isEmpty();
        assertThat(s.dns().orElseThrow().zone()).isEmpty();
        assertThat(parse("Hostname::node1::hostname=yes").address()).isEmpty();
    }

    @Test
    void refusesWhatItCannotDoWithAMessageThatSaysWhatToWrite() {
        assertThatThrownBy(() -> parse("Hostname")).isInstanceOf(ResourceAgentException.class)
                .hasMessageContaining("first argument must be the host name").hasMessageContaining("write Hostname::NAME");
        assertThatThrownBy(() -> parse("Hostname::node1")).hasMessageContaining("takes over nothing");
        assertThatThrownBy(() -> parse("Hostname::node1::netbios=yes")).hasMessageContaining("need address=IP");
        assertThatThrownBy(() -> parse("Hostname::node1::address=198.18.0.100::dns=node1.townhall.lan"))
                .hasMessageContaining("dns= needs dns_server=IP");
        assertThatThrownBy(() -> parse("Hostname::node1::address=198.18.0.100::dns=node1.townhall.lan"
                + "::dns_server=198.18.0.10")).hasMessageContaining("dns= needs dns_home=IP");
        assertThatThrownBy(() -> parse("Hostname::node1::adress=198.18.0.100")).hasMessageContaining("unknown option [adress]");
        assertThatThrownBy(() -> parse("Hostname::node1::hostname=yes::hostname=no")).hasMessageContaining("given twice");
        assertThatThrownBy(() -> parse("Hostname::node1::address=198.18.0.300::netbios=yes"))
                .hasMessageContaining("octet 300");
        assertThatThrownBy(() -> parse("Hostname::node1::address=198.18.0.100::netbios=averyveryverylongname"))
                .hasMessageContaining("1 to 15");
        assertThatThrownBy(() -> parse("Hostname::node1::hostname=maybe")).hasMessageContaining("yes or no");
        assertThatThrownBy(() -> parse("Hostname::node1::hostname=yes::dns_ttl=5")).hasMessageContaining("without dns=");
        assertThatThrownBy(() -> parse("Hostname::node_1::hostname=yes")).hasMessageContaining("not a host name");
        assertThatThrownBy(() -> parse("Hostname::node1::address=198.18.0.100::dns=node1::dns_server=198.18.0.10"
                + "::dns_home=198.18.0.1")).hasMessageContaining("not a fully qualified name");
        assertThatThrownBy(() -> parse("Hostname::node1::address=198.18.0.100::dns=node1.lan::dns_server=198.18.0.10"
                + "::dns_home=198.18.0.1::dns_key=ddns.key")).hasMessageContaining("absolute path");
    }
}
