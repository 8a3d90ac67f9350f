package org.jheartbeat.resources.ip;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class IpCommandsTest {
    private final IpCommands ip = IpCommands.DEFAULT;

    @Test
    void addDelShowRoutes() {
        assertThat(ip.add(new ResolvedIpAddr("198.18.0.100", 24, "eth0", Optional.empty())))
                .containsExactly("ip", "-4", "addr", "add", "198.18.0.100/24", "brd", "+", "dev", "eth0");
        assertThat(ip.add(new ResolvedIpAddr("198.18.0.100", 24, "eth0", Optional.of("198.18.0.255"))))
                .containsExactly("ip", "-4", "addr", "add", "198.18.0.100/24", "brd", "198.18.0.255", "dev", "eth0");
        assertThat(ip.add(new ResolvedIpAddr("198.18.0.100", 25, "eth0", Optional.empty(), Optional.of("eth0:web"))))
                .as("a NIC label is passed on as the OCF IPaddr2 agent does")
                .containsExactly("ip", "-4", "addr", "add", "198.18.0.100/25", "brd", "+", "dev", "eth0", "label",
                        "eth0:web");
        assertThat(ip.del("198.18.0.100/24", "eth0"))
                .containsExactly("ip", "-4", "addr", "del", "198.18.0.100/24", "dev", "eth0");
        assertThat(ip.show("eth0")).containsExactly("ip", "-o", "-4", "addr", "show", "dev", "eth0");
        assertThat(ip.routes()).containsExactly("ip", "-4", "-o", "route", "show");
        assertThat(new IpCommands("/sbin/ip").routes()).startsWith("/sbin/ip");
    }

    @Test
    void arping() {
        assertThat(GratuitousArp.DEFAULT.argv("eth0", "198.18.0.100", 5))
                .containsExactly("arping", "-U", "-c", "5", "-I", "eth0", "198.18.0.100");
        assertThat(GratuitousArp.DEFAULT.synchronousCount()).isZero();
        assertThat(GratuitousArp.DEFAULT.backgroundCount()).isEqualTo(5);
        var syncFirst = new GratuitousArp("arping", 3, true);
        assertThat(syncFirst.synchronousCount()).isEqualTo(1);
        assertThat(syncFirst.backgroundCount()).isEqualTo(2);
        assertThat(new GratuitousArp("arping", 0, true).synchronousCount()).isZero();
        assertThat(GratuitousArp.timeoutFor(5)).hasSeconds(10);
    }

    @Test
    void parsesAddressShowOutput() {
        AddressTable table = AddressTable.parse("""
                3: eth0    inet 198.18.0.1/24 brd 198.18.0.255 scope global eth0\\       valid_lft forever preferred_lft forever
                3: eth0    inet 198.18.0.100/24 brd 198.18.0.255 scope global secondary eth0\\       valid_lft forever preferred_lft forever
                5: tun0    inet 198.18.9.1 peer 198.18.9.2/32 scope global tun0\\       valid_lft forever preferred_lft forever
                7: v0@if6    inet 198.18.1.1/30 scope global v0\\       valid_lft forever preferred_lft forever
                """);
        assertThat(table.addresses()).extracting(AddressTable.Assigned::cidr)
                .containsExactly("198.18.0.1/24", "198.18.0.100/24", "198.18.9.1/32", "198.18.1.1/30");
        assertThat(table.find("eth0", "198.18.0.100")).get().extracting(AddressTable.Assigned::prefix).isEqualTo(24);
        assertThat(table.find("eth0", "198.18.0.10")).isEmpty();
        assertThat(table.find("eth1", "198.18.0.100")).isEmpty();
        assertThat(table.find("v0", "198.18.1.1")).isPresent();
        assertThat(AddressTable.parse("").addresses()).isEmpty();
    }
}
