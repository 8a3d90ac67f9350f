package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node's own address on an interface is its primary one, never a cluster address (VIP) it holds now; its
 * prefix is kept (the group's address is checked against that subnet).
 */
class HostInventoryTest {
    @Test
    void aVipHeldOnTheInterfaceIsNotTakenForTheNodesAddress() {
        String ip = """
                1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
                2: eth0    inet 198.18.0.1/24 brd 198.18.0.255 scope global eth0\\       valid_lft forever
                2: eth0    inet 198.18.0.100/24 brd 198.18.0.255 scope global secondary eth0\\       valid_lft forever
                3: eth1@if4    inet 198.18.1.1/24 scope global eth1\\       valid_lft forever
                3: eth1@if4    inet 10.9.9.9/32 scope global eth1\\       valid_lft forever
                """;
        assertThat(HostInventory.primaryAddresses(ip)).isEqualTo(Map.of("lo", "127.0.0.1/8", "eth0", "198.18.0.1/24",
                "eth1", "198.18.1.1/24"));
    }

    @Test
    void anInterfaceKeepsItsPrefixForTheSubnetCheck() {
        assertThat(HostInventory.iface("eth0", "198.18.0.1/24", true)).isEqualTo(new HostInventory.Iface("eth0",
                "198.18.0.1", true, 24));
        assertThat(HostInventory.iface("eth0", "198.18.0.1", false).prefix()).isZero();
        assertThat(HostInventory.iface("eth0", "198.18.0.1/x", false).cidr()).isEqualTo("198.18.0.1");
    }
}
