package org.jheartbeat.resources.ip;

import java.util.Objects;
import java.util.Optional;

/**
 * A fully specified address to take over, after {@link IpAddrSpec#resolve(RouteTable)}.
 *
 * @param address   dotted quad
 * @param prefix    prefix length 0..32
 * @param iface     interface to put it on
 * @param broadcast explicit broadcast address, or empty for {@code brd +} (kernel-derived)
 */
public record ResolvedIpAddr(String address, int prefix, String iface, Optional<String> broadcast) {
    public ResolvedIpAddr {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(iface, "iface");
        Objects.requireNonNull(broadcast, "broadcast");
        if (prefix < 0 || prefix > 32) {
            throw new IllegalArgumentException("prefix " + prefix);
        }
    }

    /** @return {@code address/prefix}, as {@code ip addr} writes it */
    public String cidr() {
        return address + "/" + prefix;
    }

    @Override
    public String toString() {
        return cidr() + " dev " + iface;
    }
}
