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
 * @param label     full interface label ({@code eth0:web}) to add the address under, or empty
 */
public record ResolvedIpAddr(String address, int prefix, String iface, Optional<String> broadcast,
                             Optional<String> label) {
    /** An address without a label. */
    public ResolvedIpAddr(String address, int prefix, String iface, Optional<String> broadcast) {
        this(address, prefix, iface, broadcast, Optional.empty());
    }

    public ResolvedIpAddr {
        Objects.requireNonNull(label, "label");
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
