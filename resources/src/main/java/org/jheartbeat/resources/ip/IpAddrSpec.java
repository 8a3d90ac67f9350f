package org.jheartbeat.resources.ip;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The argument of an IPaddr resource, {@code ip[/prefix[/iface[/broadcast]]]}, or {@code
 * ip/prefix/broadcast} when the third part starts with a digit (Heartbeat 3.0.6's IPaddr wrapper
 * rule). The prefix may also be written as a dotted netmask ({@code 255.255.255.0}); an empty part
 * ({@code 198.18.0.9//eth1}) means "not given". Missing parts are filled in from the routing table
 * by {@link #resolve(RouteTable)}. Pure.
 *
 * @param address   the address to take over, dotted quad
 * @param prefix    network prefix length 0..32, if given
 * @param iface     network interface name, if given
 * @param broadcast broadcast address, dotted quad, if given (else the kernel derives it)
 */
public record IpAddrSpec(String address, OptionalInt prefix, Optional<String> iface, Optional<String> broadcast) {
    /** Interface names the kernel accepts (IFNAMSIZ - 1 = 15 characters), without alias labels. */
    private static final Pattern IFACE = Pattern.compile("[A-Za-z0-9_.-]{1,15}");

    public IpAddrSpec {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(iface, "iface");
        Objects.requireNonNull(broadcast, "broadcast");
    }

    /**
     * Parses the resource argument.
     *
     * @param text e.g. {@code 198.18.0.100}, {@code 198.18.0.100/24}, {@code 198.18.0.100/24/eth0},
     *             {@code 198.18.0.100/24/eth0/198.18.0.255}, {@code 198.18.0.100/24/198.18.0.255}
     * @return the parsed spec
     * @throws IpAddrSpecException naming the token and the bad part (octet, prefix, interface,
     *         broadcast, or too many parts)
     */
    public static IpAddrSpec parse(String text) {
        String[] parts = text.split("/", -1);
        if (parts.length > 4) {
            throw new IpAddrSpecException("IPaddr [" + text + "]: expected ip[/prefix[/iface[/broadcast]]]");
        }
        String address = ipPart(text, "address", parts[0]);
        OptionalInt prefix = parts.length > 1 && !parts[1].isEmpty() ? OptionalInt.of(prefix(text, parts[1]))
                : OptionalInt.empty();
        Optional<String> iface = Optional.empty();
        Optional<String> broadcast = Optional.empty();
        if (parts.length > 2 && !parts[2].isEmpty()) {
            if (Character.isDigit(parts[2].charAt(0))) {
                if (parts.length > 3) {
                    throw new IpAddrSpecException("IPaddr [" + text + "]: nothing may follow the broadcast address");
                }
                broadcast = Optional.of(ipPart(text, "broadcast", parts[2]));
            } else {
                if (!IFACE.matcher(parts[2]).matches()) {
                    throw new IpAddrSpecException("IPaddr [" + text + "]: bad interface name [" + parts[2] + "]");
                }
                iface = Optional.of(parts[2]);
            }
        }
        if (parts.length > 3 && !parts[3].isEmpty()) {
            broadcast = Optional.of(ipPart(text, "broadcast", parts[3]));
        }
        return new IpAddrSpec(address, prefix, iface, broadcast);
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
            return new ResolvedIpAddr(address, prefix.getAsInt(), iface.get(), broadcast);
        }
        Route route = routes.bestRouteFor(Ipv4.parse(address)).orElseThrow(() -> new IpAddrSpecException(
                "IPaddr [" + this + "]: no non-default route with a device contains " + address
                        + "; write it as ip/prefix/iface"));
        return new ResolvedIpAddr(address, prefix.orElse(route.prefix()), iface.orElse(route.device()), broadcast);
    }

    /** @return {@code true} if resolving needs the routing table */
    public boolean needsRouteLookup() {
        return prefix.isEmpty() || iface.isEmpty();
    }

    private static String ipPart(String token, String what, String part) {
        try {
            Ipv4.parse(part);
            return part;
        } catch (IllegalArgumentException e) {
            throw new IpAddrSpecException("IPaddr [" + token + "]: bad " + what + ": " + e.getMessage());
        }
    }

    private static int prefix(String token, String part) {
        if (part.contains(".")) {
            int mask = Ipv4.parse(ipPart(token, "netmask", part));
            int bits = Integer.bitCount(mask);
            if (mask != Ipv4.mask(bits)) {
                throw new IpAddrSpecException("IPaddr [" + token + "]: netmask " + part + " is not contiguous");
            }
            return bits;
        }
        if (part.length() > 2 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IpAddrSpecException("IPaddr [" + token + "]: bad prefix length [" + part + "]");
        }
        int bits = Integer.parseInt(part);
        if (bits > 32) {
            throw new IpAddrSpecException("IPaddr [" + token + "]: prefix length " + bits + " > 32");
        }
        return bits;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(address);
        prefix.ifPresent(p -> sb.append('/').append(p));
        iface.ifPresent(i -> sb.append(prefix.isPresent() ? "/" : "//").append(i));
        broadcast.ifPresent(b -> sb.append('/').append(b));
        return sb.toString();
    }
}
