package org.jheartbeat.director.topology;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.RealServer;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.topology.IpJson.InterfaceAddress;
import org.jheartbeat.director.topology.IpJson.Route;

/**
 * The LVS-DR topology as the director can see it. A {@code gate} real gets the client's packet with only the
 * destination MAC address rewritten, so it must be on the L2 segment of the interface that holds the VIP
 * ({@code shared/facts/lvs.md} §5.1): a gate real that is in none of the director's directly connected subnets,
 * on another interface's subnet than the VIP's, or that the director reaches through a gateway, is a warning at
 * the real's line naming the real and the director's side. A real that is one of the director's own addresses is
 * the kernel's {@code Local} method and is left alone. What the director cannot see (the real's own default
 * gateway, its ARP settings) is the admin's check on the real; docs/reference.md gives the commands.
 */
public final class DrTopology {
    private DrTopology() {
    }

    /**
     * The warnings for the gate reals of {@code config}.
     *
     * @param config    the file read
     * @param addresses this host's addresses ({@code ip -j addr})
     * @param routes    this host's route to an address ({@code ip -j route get}), empty when there is none
     * @return one warning per gate real that LVS-DR cannot reach as it needs, in file order
     */
    public static List<ConfigDiagnostic> warnings(LdirectordConfig config, List<InterfaceAddress> addresses,
                                                  Function<InetAddress, Optional<Route>> routes) {
        List<InterfaceAddress> subnets = addresses.stream().filter(a -> !"host".equals(a.scope()))
                .filter(a -> a.prefixLength() < a.address().getAddress().length * 8).toList();
        List<ConfigDiagnostic> out = new ArrayList<>();
        for (VirtualService v : config.virtuals()) {
            Optional<InetAddress> vip = v.key().endpoint().map(e -> e.address());
            Optional<String> vipDevice = vip.flatMap(a -> vipDevice(a, addresses, subnets));
            for (RealServer r : v.reals()) {
                if (r.forward() != Forward.GATE) {
                    continue;
                }
                InetAddress rip = r.endpoint().address();
                if (addresses.stream().anyMatch(a -> a.address().equals(rip))) {
                    continue;
                }
                Optional<String> problem = problem(r, rip, vip, vipDevice, subnets, routes.apply(rip));
                problem.ifPresent(p -> out.add(ConfigDiagnostic.warning(config.file(), r.line(), p)));
            }
        }
        return List.copyOf(out);
    }

    /** The interface holding the VIP, else the one whose subnet it is in (where Heartbeat's IPaddr would put it). */
    private static Optional<String> vipDevice(InetAddress vip, List<InterfaceAddress> addresses,
                                              List<InterfaceAddress> subnets) {
        return addresses.stream().filter(a -> a.address().equals(vip)).map(InterfaceAddress::device).findFirst()
                .or(() -> subnets.stream().filter(s -> s.subnetContains(vip)).map(InterfaceAddress::device)
                        .findFirst());
    }

    private static Optional<String> problem(RealServer r, InetAddress rip, Optional<InetAddress> vip,
                                            Optional<String> vipDevice, List<InterfaceAddress> subnets,
                                            Optional<Route> route) {
        String real = "real " + r.endpoint() + " (gate: LVS-DR)";
        String vipSide = vip.map(a -> "the VIP " + a.getHostAddress() + vipDevice.map(d -> " on " + d)
                .orElse(" (on no interface or subnet of this director yet)")).orElse("the firewall-mark service");
        String remedy = "put the real on that segment (same switch or VLAN, an address in that subnet), or use ipip"
                + " (LVS-TUN) or masq (LVS-NAT) for a real elsewhere";
        List<InterfaceAddress> family = subnets.stream()
                .filter(s -> s.address().getAddress().length == rip.getAddress().length).toList();
        List<InterfaceAddress> mine = family.stream().filter(s -> s.subnetContains(rip)).toList();
        if (mine.isEmpty()) {
            String how = route.map(rt -> rt.gateway().map(g -> "; this director reaches it through gateway "
                    + g.getHostAddress() + " on " + rt.device()).orElse("; this director reaches it on "
                    + rt.device() + " without a connected subnet")).orElse("; this director has no route to it");
            return Optional.of(real + " is in none of this director's directly connected subnets ("
                    + (family.isEmpty() ? "none" : family.stream().map(InterfaceAddress::toString)
                    .collect(Collectors.joining(", "))) + ")" + how + ": LVS-DR rewrites only the MAC address, so"
                    + " the real must be on the L2 segment of " + vipSide + "; " + remedy);
        }
        if (vipDevice.isPresent() && mine.stream().noneMatch(s -> s.device().equals(vipDevice.get()))) {
            return Optional.of(real + " is in " + mine.get(0) + " but " + vipSide + ": LVS-DR needs the real on the"
                    + " L2 segment of the VIP's interface; " + remedy);
        }
        if (route.isPresent() && route.get().gateway().isPresent()) {
            return Optional.of(real + " is in " + mine.get(0) + " but this director's route to it goes through"
                    + " gateway " + route.get().gateway().get().getHostAddress() + " on " + route.get().device()
                    + " (see ip route get " + rip.getHostAddress() + "): LVS-DR needs the real reached directly on"
                    + " the segment of " + vipSide + "; remove the more specific route or rule");
        }
        return Optional.empty();
    }
}
