package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.junit.jupiter.api.Test;

/** hb setup's check of the group answer against the nodes' own addresses and this node's interfaces. */
class SetupGroupCheckTest {
    private static final Path DIR = Path.of("/etc/ha.d");

    private static List<String> check(String group) {
        SetupAnswers a = new SetupAnswers("node1", "node2", List.of(new SetupAnswers.UcastLink("eth1", "198.18.1.1",
                "198.18.1.2"), new SetupAnswers.UcastLink("eth0", "198.18.0.1", "198.18.0.2")), List.of(), 19200,
                group, "", SetupFilesTest.KEY);
        return SetupGroupCheck.check(SetupFiles.render(a).get("haresources"), DIR, a, SetupPromptsTest.INV).stream()
                .map(ConfigDiagnostic::format).toList();
    }

    @Test
    void aFreeAddressOnAnInterfaceThatIsUpHerePasses() {
        assertThat(check("node1 198.18.0.100/24/eth0 apache2")).isEmpty();
        assertThat(check("node1 198.18.0.100 apache2")).isEmpty();
        assertThat(check("node1 IPaddr::198.18.0.100/24/eth0 apache2")).isEmpty();
    }

    @Test
    void anAddressOfEitherNodeIsRefused() {
        // lab: as the group's address, node2's own 198.18.0.2 was deleted from node2's eth0 when its daemon stopped
        assertThat(check("node1 198.18.0.2/24/eth0 apache2")).containsExactly("/etc/ha.d/haresources:2: address"
                + " 198.18.0.2 of 198.18.0.2/24/eth0 is node2's own address on eth0 (--ucast): the group would take it"
                + " where it already is and remove it when it stops, cutting that node off; give the group an address"
                + " of its own, one no machine uses (--group)");
        assertThat(check("node2 IPaddr2::198.18.1.1 apache2")).singleElement().asString()
                .contains("address 198.18.1.1 of IPaddr2::198.18.1.1 is node1's own address on eth1:");
    }

    @Test
    void anAddressOutsideTheSubnetOfItsInterfaceIsRefusedWithThatSubnet() {
        // a tester's group copied from the help (192.168.1.100/24/eth0) on a node whose eth0 is 198.18.0.1/24:
        // accepted, and the group "ran" where no client could reach it
        assertThat(check("node1 192.168.1.100/24/eth0 apache2")).containsExactly("/etc/ha.d/haresources:2: address"
                + " 192.168.1.100 of 192.168.1.100/24/eth0 is not in the subnet of eth0 (eth0 is 198.18.0.1/24 on"
                + " node1): the group would add it there and no client would reach it; give an address of"
                + " 198.18.0.0/24, or name the interface of the network the address belongs to (--group); an address"
                + " routed to this pair on purpose is written with its own prefix, ADDRESS/32/eth0");
        assertThat(check("node1 IPaddr2::198.18.0.100/24/eth1 apache2")).singleElement().asString()
                .contains("is not in the subnet of eth1 (eth1 is 198.18.1.1/24 on node1)");
    }

    @Test
    void anAddressWithItsOwnPrefixIsAcceptedAsIpaddrWouldAcceptIt() {
        // a host address routed to the pair (a failover IP), and a wider network holding the interface's address
        assertThat(check("node1 203.0.113.10/32/eth0 apache2")).isEmpty();
        assertThat(check("node1 198.18.7.100/16/eth0 apache2")).isEmpty();
        // without an interface, hb config check finds one from the routes (or says none carries the address)
        assertThat(check("node1 192.168.1.100 apache2")).isEmpty();
    }

    @Test
    void anInterfaceThatIsNotUpHereIsRefused() {
        // lab: hb config check only warned, both checks passed, and the group failed to start on both nodes
        assertThat(check("node1 198.18.0.100/24/eth9 apache2")).containsExactly("/etc/ha.d/haresources:2: interface"
                + " eth9 of 198.18.0.100/24/eth9 is not up with an IPv4 address on node1 (these are: eth0 eth1): the"
                + " group would fail to start on both nodes; name the interface of the network its clients use, the"
                + " same name on both nodes (--group)");
    }
}
