package org.jheartbeat.cli.setup;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.Ipv4;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.resources.ip.IpAddrSpec;
import org.jheartbeat.resources.ip.IpAddrSpecException;
import org.jheartbeat.resources.lookup.StandardResourceAgents;

/**
 * What {@code hb setup} knows about the group's addresses that {@code hb config check} cannot tell on a node:
 * the pure check of the {@code --group} answer against both nodes' addresses (this node's from its
 * {@link HostInventory}, the peer's from the {@code --ucast} answers) and this node's interfaces.
 * <ul>
 * <li>A group address that is a node's own address: the IP agent "takes" it where it already is, and removes it
 * when the group stops (a stop, a standby), so that node loses its own address on that network. Found in the lab:
 * node2's 198.18.0.2 as the group's address was deleted from node2's eth0 when its daemon stopped.</li>
 * <li>An interface that is not up with an IPv4 address here: {@code hb config check} only warns (the interface
 * may appear later), the check passes on both nodes, the daemons start, and the group then fails to start on
 * both ({@code Cannot find device}); {@code hb setup} said the pair was running. Setup writes the interface
 * names of both nodes from this node's, so one missing here is a wrong answer.</li>
 * <li>An address outside the subnet of the interface it names ({@link #subnetProblem}): the group starts, and
 * no client reaches it.</li>
 * </ul>
 */
public final class SetupGroupCheck {
    private SetupGroupCheck() {
    }

    /**
     * The errors of the group answer, each {@code haresources:LINE} as it would be written in {@code dir}.
     *
     * @param haresources the haresources text {@link SetupFiles#render} makes
     * @param a           the answers (node names, the peer's link addresses)
     * @param inv         this node's interfaces
     * @return the errors; empty when the group's addresses are free and its interfaces are up here
     */
    public static List<ConfigDiagnostic> check(String haresources, Path dir, SetupAnswers a, HostInventory inv) {
        Path file = dir.resolve(HaresourcesParser.FILE_NAME);
        List<ConfigDiagnostic> out = new ArrayList<>();
        List<ResourceGroupDecl> groups = HaresourcesParser.parse(file, haresources,
                List.of(NodeName.of(a.node()), NodeName.of(a.peer()))).groups();
        for (ResourceGroupDecl g : groups) {
            for (ResourceSpec r : g.resources()) {
                if (!StandardResourceAgents.IP_AGENTS.contains(r.agent())) {
                    continue;
                }
                IpAddrSpec spec;
                try {
                    spec = IpAddrSpec.parse(r.agent(), r.agentArgs());
                } catch (IpAddrSpecException e) {
                    continue; // the parser reports it
                }
                owner(spec.address(), a, inv).ifPresent(o -> out.add(ConfigDiagnostic.error(file, g.line(), "address "
                        + spec.address() + " of " + r.token() + " is " + o + ": the group would take it where it"
                        + " already is and remove it when it stops, cutting that node off; give the group an address"
                        + " of its own, one no machine uses (--group)")));
                subnetProblem(spec, r.token(), a.node(), inv).ifPresent(m -> out.add(ConfigDiagnostic.error(file,
                        g.line(), m)));
                spec.iface().filter(i -> inv.iface(i).isEmpty()).ifPresent(i -> out.add(ConfigDiagnostic.error(file,
                        g.line(), "interface " + i + " of " + r.token() + " is not up with an IPv4 address on "
                        + a.node() + (inv.interfaces().isEmpty() ? "" : " (these are: " + String.join(" ",
                        inv.interfaces().stream().map(HostInventory.Iface::name).toList()) + ")") + ": the group"
                        + " would fail to start on both nodes; name the interface of the network its clients use,"
                        + " the same name on both nodes (--group)")));
            }
        }
        return out;
    }

    /**
     * Why the group's address does not belong on the interface it names, if it does not: it is outside that
     * interface's subnet here ({@code 192.168.1.100/24/eth0} with eth0 at {@code 198.18.0.1/24}, the help's
     * example copied unchanged). The IP agent adds it all the same (prefix and interface given, no route is
     * looked up, here as in Heartbeat's IPaddr), the group "runs", and no client reaches it. Accepted, as IPaddr would, when the
     * group names its own prefix for it: a host address ({@code /32}, an address routed to the pair on purpose,
     * e.g. a hoster's failover IP) or a network that holds the interface's address (a wider one, e.g. {@code /16}
     * over the interface's {@code /24}). Not checked when the interface's prefix is unknown or no interface is
     * named ({@code hb config check} then finds the interface from the routes, or says none carries it).
     */
    static Optional<String> subnetProblem(IpAddrSpec spec, String token, String node, HostInventory inv) {
        Optional<HostInventory.Iface> on = spec.iface().flatMap(inv::iface).filter(i -> i.prefix() > 0);
        if (on.isEmpty() || !Ipv4.isLiteral(spec.address()) || !Ipv4.isLiteral(on.get().address())) {
            return Optional.empty();
        }
        HostInventory.Iface i = on.get();
        int vip = Ipv4.parse(spec.address());
        int own = Ipv4.parse(i.address());
        if (Ipv4.contains(own, i.prefix(), vip)) {
            return Optional.empty();
        }
        int bits = spec.prefix().orElse(i.prefix());
        if (spec.prefix().isPresent() && (bits == 32 || Ipv4.contains(vip, bits, own))) {
            return Optional.empty();
        }
        String subnet = Ipv4.format(own & Ipv4.mask(i.prefix())) + "/" + i.prefix();
        return Optional.of("address " + spec.address() + " of " + token + " is not in the subnet of " + i.name()
                + " (" + i.name() + " is " + i.cidr() + " on " + node + "): the group would add it there and no"
                + " client would reach it; give an address of " + subnet + ", or name the interface of the network"
                + " the address belongs to (--group); an address routed to this pair on purpose is written with its"
                + " own prefix, ADDRESS/32/" + i.name());
    }

    /** Whose own address {@code address} is, as said in a message ("node1's address on eth0"), if a node's. */
    private static Optional<String> owner(String address, SetupAnswers a, HostInventory inv) {
        for (HostInventory.Iface i : inv.interfaces()) {
            if (i.address().equals(address)) {
                return Optional.of(a.node() + "'s own address on " + i.name());
            }
        }
        for (SetupAnswers.UcastLink l : a.ucast()) {
            if (l.peerAddress().equals(address)) {
                return Optional.of(a.peer() + "'s own address on " + l.iface() + " (--ucast)");
            }
        }
        return Optional.empty();
    }
}
