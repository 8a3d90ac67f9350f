package org.jheartbeat.director.userspace;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The PROXY protocol version 1 header (HAProxy's "The PROXY protocol", section 2.1): one text line
 * {@code PROXY TCP4 CLIENT VIRTUAL CPORT VPORT\r\n} sent to the real server before the client's
 * bytes, so the server learns the client's address although the connection comes from the
 * director.
 */
final class ProxyHeader {
    private ProxyHeader() {
    }

    /**
     * @param client  the client's address and port
     * @param virtual the virtual address and port the client connected to
     * @return the header bytes (at most 107, as the specification bounds them)
     */
    static byte[] v1(InetSocketAddress client, InetSocketAddress virtual) {
        boolean v6 = client.getAddress() instanceof Inet6Address;
        String line = "PROXY " + (v6 ? "TCP6 " : "TCP4 ") + host(client) + " " + host(virtual) + " "
                + client.getPort() + " " + virtual.getPort() + "\r\n";
        return line.getBytes(StandardCharsets.US_ASCII);
    }

    private static String host(InetSocketAddress a) {
        String h = a.getAddress().getHostAddress();
        int pct = h.indexOf('%');
        return pct >= 0 ? h.substring(0, pct) : h;
    }
}
