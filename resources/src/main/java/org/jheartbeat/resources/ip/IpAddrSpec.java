package org.jheartbeat.resources.ip;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.jheartbeat.core.config.IpAddrArgument;
import org.jheartbeat.core.config.Ipv4;

/**
 * The argument of an IPaddr resource, {@code ip[/prefix[/iface[:label][/broadcast]]]}, or {@code
 * ip/prefix/broadcast} when the third part starts with a digit (Heartbeat 3.0.6's IPaddr wrapper
 * rule). Parsing is {@link IpAddrArgument#parse(String)}, the same code the config check runs, so a
 * configuration that passes {@code hb config check} is one this agent accepts. Missing parts are
 * filled in from the routing table by {@link #resolve(RouteTable)}. Pure.
 *
 * @param address   the address to take over, dotted quad
 * @param prefix    network prefix length 1..32, if given
 * @param iface     network interface name (without label), if given
 * @param broadcast broadcast address, dotted quad, if given (else the kernel derives it)
 * @param label     full interface label such as {@code eth0:web}, if given
 */
public record IpAddrSpec(String address, OptionalInt prefix, Optional<String> iface, Optional<String> broadcast,
                         Optional<String> label) {
    public IpAddrSpec {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(iface, "iface");
        Objects.requireNonNull(broadcast, "broadcast");
        Objects.requireNonNull(label, "label");
    }

    /** A spec without a label. */
    public IpAddrSpec(String address, OptionalInt prefix, Optional<String> iface, Optional<String> broadcast) {
        this(address, prefix, iface, broadcast, Optional.empty());
    }

    /**
     * Parses the resource argument.
     *
     * @param text e.g. {@code 198.18.0.100}, {@code 198.18.0.100/24}, {@code 198.18.0.100/24/eth0},
     *             {@code 198.18.0.100/24/eth0/198.18.0.255}, {@code 198.18.0.100/24/198.18.0.255},
     *             {@code 198.18.0.100/255.255.255.0/eth0:web}
     * @return the parsed spec
     * @throws IpAddrSpecException naming the token and the bad part (octet, prefix, netmask,
     *         interface, label, broadcast, or too many parts)
     */
    public static IpAddrSpec parse(String text) {
        try {
            return of(IpAddrArgument.parse(text));
        } catch (IllegalArgumentException e) {
            throw new IpAddrSpecException(e.getMessage());
        }
    }

    /**
     * Parses the {@code ::}-separated arguments of an IPaddr/IPaddr2 resource, as the config check does.
     *
     * @param agent the resource name, for messages
     * @param args  the arguments; exactly one is valid
     * @return the parsed spec
     * @throws IpAddrSpecException if there is not exactly one argument or it is invalid
     */
    public static IpAddrSpec parse(String agent, List<String> args) {
        try {
            return of(IpAddrArgument.parse(agent, args));
        } catch (IllegalArgumentException e) {
            throw new IpAddrSpecException(e.getMessage());
        }
    }

    private static IpAddrSpec of(IpAddrArgument a) {
        return new IpAddrSpec(a.address(), a.prefix(), a.iface(), a.broadcast(), a.label());
    }

    /**
     * Fills in a missing prefix and/or interface from the most specific route containing the
     * address (see {@link RouteTable#bestRouteFor(int)}); as Heartbeat's IPaddr finds the
     * interface. A given prefix or interface is kept as is.
     *
     * @param routes the parsed {@code ip -4 -o route show} output; not consulted if nothing is missing
     * @return a fully specified address
     * @throws IpAddrSpecException if something is missing and no route with a device contains it
     */
    public ResolvedIpAddr resolve(RouteTable routes) {
        if (prefix.isPresent() && iface.isPresent()) {
            return new ResolvedIpAddr(address, prefix.getAsInt(), iface.get(), broadcast, label);
        }
        Route route = routes.bestRouteFor(Ipv4.parse(address)).orElseThrow(() -> new IpAddrSpecException(
                "IPaddr [" + this + "]: no non-default route with a device contains " + address
                        + "; write it as ip/prefix/iface"));
        return new ResolvedIpAddr(address, prefix.orElse(route.prefix()), iface.orElse(route.device()), broadcast,
                label);
    }

    /** @return {@code true} if resolving needs the routing table */
    public boolean needsRouteLookup() {
        return prefix.isEmpty() || iface.isEmpty();
    }

    @Override
    public String toString() {
        return new IpAddrArgument(address, prefix, iface, label, broadcast).toString();
    }
}
