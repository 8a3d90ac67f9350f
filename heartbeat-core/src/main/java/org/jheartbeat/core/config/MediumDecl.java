package org.jheartbeat.core.config;

/**
 * One heartbeat medium declared in ha.cf: a path over which {@code status} and cluster messages
 * travel. The link name of a medium (as logged in {@code Link node2:eth1 dead.}) is the interface
 * for UDP media and the device path for serial (Heartbeat 3.0.6 {@code HBcomm} plugins).
 */
public sealed interface MediumDecl permits MediumDecl.Ucast, MediumDecl.Bcast, MediumDecl.Mcast,
        MediumDecl.Serial {

    /** The link name this medium contributes: interface name or device path. */
    String linkName();

    /** The ha.cf line it was declared on (1-based), for diagnostics. */
    int line();

    /**
     * {@code ucast IFACE PEER}: unicast UDP to {@code peer} on {@code udpport}, through {@code iface}.
     *
     * @param iface interface name, e.g. {@code eth1}
     * @param peer  peer IPv4 address or host name, as written
     * @param port  the UDP port in force when the line was read ({@code udpport} must precede media)
     * @param line  1-based ha.cf line
     */
    record Ucast(String iface, String peer, int port, int line) implements MediumDecl {
        @Override
        public String linkName() {
            return iface;
        }
    }

    /**
     * {@code bcast IFACE}: UDP broadcast to the interface's broadcast address on {@code udpport}.
     *
     * @param iface interface name
     * @param port  the UDP port in force when the line was read
     * @param line  1-based ha.cf line
     */
    record Bcast(String iface, int port, int line) implements MediumDecl {
        @Override
        public String linkName() {
            return iface;
        }
    }

    /**
     * {@code mcast IFACE GROUP PORT TTL LOOP}: UDP multicast to {@code group:port} out of {@code iface},
     * with that TTL and multicast loopback (Heartbeat 3.0.6 {@code mcast.c}). The port is the line's own,
     * not {@code udpport}.
     *
     * @param iface interface name; also the link name
     * @param group multicast group, dotted quad in 224.0.0.0/4
     * @param port  UDP port 1..65535
     * @param ttl   multicast TTL 0..4
     * @param loop  whether our own packets are looped back to us
     * @param line  1-based ha.cf line
     */
    record Mcast(String iface, String group, int port, int ttl, boolean loop, int line) implements MediumDecl {
        @Override
        public String linkName() {
            return iface;
        }
    }

    /**
     * {@code serial DEVICE}: a null-modem line carrying Heartbeat's classic text frames.
     *
     * @param device the device path as written, e.g. {@code /dev/ttyS0}; also the link name
     * @param baud   line speed in bit/s, from the {@code baud} line before it (default 19200)
     * @param line   1-based ha.cf line
     */
    record Serial(String device, int baud, int line) implements MediumDecl {
        /** Heartbeat 3.0.6's default speed. */
        public static final int DEFAULT_BAUD = 19200;
        /** The speeds Heartbeat 3.0.6 accepts, in bit/s. */
        public static final java.util.List<Integer> RATES = java.util.List.of(9600, 19200, 38400, 57600, 115200,
                230400, 460800);

        @Override
        public String linkName() {
            return device;
        }
    }
}
