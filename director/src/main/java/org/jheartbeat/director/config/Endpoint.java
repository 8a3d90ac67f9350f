package org.jheartbeat.director.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * An address and port as ipvsadm writes them: {@code 198.18.0.100:80}, or {@code [2001:db8::1]:80}
 * for IPv6.
 *
 * @param address the numeric address
 * @param port    0..65535 (0: the packet's own port, for firewall-mark services)
 */
public record Endpoint(InetAddress address, int port) implements Comparable<Endpoint> {

    public Endpoint {
        Objects.requireNonNull(address, "address");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** Whether the address is IPv6. */
    public boolean isIpv6() {
        return address instanceof Inet6Address;
    }

    /** The address alone, numeric, IPv6 bracketed. */
    public String host() {
        String a = address.getHostAddress();
        int pct = a.indexOf('%');
        if (pct >= 0) {
            a = a.substring(0, pct);
        }
        return isIpv6() ? "[" + compress(address.getAddress()) + "]" : a;
    }

    /** An IPv6 address in its shortest form (RFC 5952: the longest run of zero groups as ::). */
    private static String compress(byte[] b) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (b[2 * i] & 0xff) << 8 | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /** As a socket address, for checks. */
    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(address, port);
    }

    /** The same address with another port. */
    public Endpoint withPort(int newPort) {
        return new Endpoint(address, newPort);
    }

    @Override
    public String toString() {
        return host() + ":" + port;
    }

    /** ipvsadm's sort order: address bytes (IPv4 before IPv6), then port. */
    @Override
    public int compareTo(Endpoint o) {
        byte[] a = address.getAddress();
        byte[] b = o.address.getAddress();
        if (a.length != b.length) {
            return Integer.compare(a.length, b.length);
        }
        for (int i = 0; i < a.length; i++) {
            int c = Integer.compare(a[i] & 0xff, b[i] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(port, o.port);
    }
}
