package org.jheartbeat.core.media.udp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.MediumDecl;

/**
 * Where a {@code ucast} or {@code bcast} medium receives and sends, worked out from this machine's
 * interfaces and routes exactly as {@link UdpMedium#start} does before it binds; also used by the
 * checks before a start ({@code hb config check}, the daemon's own check), so that a line the daemon
 * could not start is an error at its {@code ha.cf} line first. Every failure message says what is
 * wrong with the line on this machine and what to do.
 *
 * @param destination where beats are sent (the peer, or the interface's broadcast address), on the line's port
 * @param receive     the local address and port the receive socket is bound to
 * @param source      the interface address beats leave from
 */
public record UdpEndpoints(InetSocketAddress destination, InetSocketAddress receive, InetAddress source) {

    /**
     * @param decl a {@link MediumDecl.Ucast} or {@link MediumDecl.Bcast}
     * @throws IOException              when the interface does not exist or has no IPv4 address, the peer does
     *                                  not resolve or is this machine, or the kernel would send through another
     *                                  interface; the message names the interface and what to do
     * @throws IllegalArgumentException for any other medium
     */
    public static UdpEndpoints of(MediumDecl decl) throws IOException {
        String iface = decl.linkName();
        List<InterfaceAddress> addresses = ipv4Of(iface);
        if (decl instanceof MediumDecl.Ucast u) {
            InetAddress peer = resolve(u.peer());
            if (isOwnAddress(peer)) {
                throw new IOException("ucast peer " + u.peer() + " (ha.cf line " + u.line() + ") is an address of this"
                        + " node; on each node the ucast line must name the OTHER node's address");
            }
            InetSocketAddress destination = new InetSocketAddress(peer, u.port());
            InetAddress local = sourceAddress(iface, addresses, destination, false);
            return new UdpEndpoints(destination, new InetSocketAddress(local, u.port()), local);
        }
        if (decl instanceof MediumDecl.Bcast b) {
            InetAddress broadcast = broadcastOf(iface, addresses);
            InetSocketAddress destination = new InetSocketAddress(broadcast, b.port());
            InetAddress local = sourceAddress(iface, addresses, destination, true);
            return new UdpEndpoints(destination, new InetSocketAddress(broadcast, b.port()), local);
        }
        throw new IllegalArgumentException("not a ucast or bcast medium: " + decl);
    }

    /**
     * The interface's broadcast address: the one its first IPv4 address carries, else that address's subnet
     * broadcast (all host bits set). An address added without {@code brd} ({@code ip addr add X/24 dev IF})
     * has none of its own (Java reports 0.0.0.0), yet the kernel delivers datagrams sent to the subnet
     * broadcast on that interface all the same (it adds a broadcast route for it: fib_add_ifaddr).
     *
     * @throws IOException when no IPv4 address of the interface has a subnet of more than two addresses (/31, /32)
     */
    static InetAddress broadcastOf(String iface, List<InterfaceAddress> addresses) throws IOException {
        for (InterfaceAddress a : addresses) {
            InetAddress b = a.getBroadcast();
            if (b != null && !b.isAnyLocalAddress()) {
                return b;
            }
        }
        for (InterfaceAddress a : addresses) {
            Optional<InetAddress> b = subnetBroadcast(a.getAddress(), a.getNetworkPrefixLength());
            if (b.isPresent()) {
                return b.get();
            }
        }
        throw new IOException("interface " + iface + " has no IPv4 broadcast address (its addresses are /31 or /32: "
                + addresses.stream().map(a -> a.getAddress().getHostAddress() + "/" + a.getNetworkPrefixLength())
                .toList() + "); use 'ucast " + iface + " PEER-ADDRESS' on it instead");
    }

    /**
     * The broadcast address of {@code address}'s subnet ({@code address | ~mask}), or empty when the
     * subnet has no broadcast address (prefix 31 or 32, RFC 3021) or {@code address} is not IPv4.
     *
     * @param prefix the subnet's prefix length, 0..32
     */
    public static Optional<InetAddress> subnetBroadcast(InetAddress address, int prefix) {
        if (!(address instanceof Inet4Address) || prefix < 0 || prefix >= 31) {
            return Optional.empty();
        }
        byte[] b = address.getAddress();
        int ip = ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
        int host = prefix == 0 ? -1 : (1 << (32 - prefix)) - 1;
        int bc = ip | host;
        try {
            return Optional.of(InetAddress.getByAddress(new byte[] {(byte) (bc >>> 24), (byte) (bc >>> 16),
                    (byte) (bc >>> 8), (byte) bc}));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an address", e);
        }
    }

    /** The interface's IPv4 addresses, in the kernel's order. @throws IOException if none or no such interface */
    static List<InterfaceAddress> ipv4Of(String iface) throws IOException {
        NetworkInterface ni;
        try {
            ni = NetworkInterface.getByName(iface);
        } catch (SocketException e) {
            throw new IOException("cannot look up interface " + iface + ": " + e.getMessage(), e);
        }
        if (ni == null) {
            throw new IOException("interface " + iface + " does not exist on this machine; name one that does"
                    + " (ip -br link)");
        }
        List<InterfaceAddress> out = new ArrayList<>();
        for (InterfaceAddress a : ni.getInterfaceAddresses()) {
            if (a.getAddress() instanceof Inet4Address) {
                out.add(a);
            }
        }
        if (out.isEmpty()) {
            throw new IOException("interface " + iface + " has no IPv4 address (is it up and configured? ip -4 addr"
                    + " show " + iface + ")");
        }
        return out;
    }

    /**
     * The local address the kernel picks to reach {@code target} (a connected UDP socket sends
     * nothing), which must belong to {@code iface}. This keeps service addresses (VIPs, secondary
     * addresses on the same interface) out of the heartbeat path: a VIP left on the interface by a
     * crashed daemon must not become the address we listen on.
     */
    private static InetAddress sourceAddress(String iface, List<InterfaceAddress> addresses, InetSocketAddress target,
                                             boolean broadcast) throws IOException {
        InetAddress local;
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.setBroadcast(broadcast);
            probe.connect(target);
            local = probe.getLocalAddress();
        } catch (SocketException | UncheckedIOException e) {
            throw new IOException("no route to " + target.getAddress().getHostAddress() + " for " + iface + ": "
                    + e.getMessage() + "; add a route through " + iface + " (ip route)", e);
        }
        for (InterfaceAddress a : addresses) {
            if (a.getAddress().equals(local)) {
                return local;
            }
        }
        throw new IOException(target.getAddress().getHostAddress() + " is reached through another interface (source "
                + local.getHostAddress() + "), not " + iface + "; name the interface that reaches it, or route it"
                + " through " + iface);
    }

    private static boolean isOwnAddress(InetAddress a) {
        try {
            return NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    private static InetAddress resolve(String host) throws IOException {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IOException("cannot resolve ucast peer [" + host + "]; write its address, or add the name to"
                    + " /etc/hosts", e);
        }
    }
}
