package org.jheartbeat.director.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What identifies a virtual service in the IPVS table: protocol and address:port, or a firewall
 * mark (with {@code -6} for an IPv6 mark service) [ipvsadm 1.31].
 *
 * @param protocol TCP, UDP or FWM
 * @param endpoint the virtual address and port (present unless {@code protocol} is FWM)
 * @param fwmark   the firewall mark (FWM only, else 0)
 * @param ipv6     an IPv6 service (for FWM: the {@code -6} flag)
 */
public record ServiceKey(Protocol protocol, Optional<Endpoint> endpoint, long fwmark, boolean ipv6)
        implements Comparable<ServiceKey> {

    public ServiceKey {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(endpoint, "endpoint");
        if ((protocol == Protocol.FWM) == endpoint.isPresent()) {
            throw new IllegalArgumentException("a " + protocol + " service needs "
                    + (protocol == Protocol.FWM ? "a mark" : "an address"));
        }
    }

    /** A TCP or UDP service. */
    public static ServiceKey of(Protocol protocol, Endpoint endpoint) {
        return new ServiceKey(protocol, Optional.of(endpoint), 0, endpoint.isIpv6());
    }

    /** A firewall-mark service. */
    public static ServiceKey fwmark(long mark, boolean ipv6) {
        return new ServiceKey(Protocol.FWM, Optional.empty(), mark, ipv6);
    }

    /** The address as ipvsadm takes it: {@code ip:port} or the mark. */
    public String address() {
        return endpoint.map(Endpoint::toString).orElse(Long.toString(fwmark));
    }

    /** The virtual port (0 for a mark service). */
    public int port() {
        return endpoint.map(Endpoint::port).orElse(0);
    }

    /** ipvsadm's arguments naming this service: {@code -t 198.18.0.100:80}, {@code -f 1 -6}. */
    public List<String> ipvsadmArgs() {
        if (protocol == Protocol.FWM && ipv6) {
            return List.of("-f", address(), "-6");
        }
        return List.of(protocol.ipvsadmOption(), address());
    }

    /**
     * ipvsadm's service arguments in ldirectord's order, for {@code ipvsadm -A/-E}:
     * {@code -t|-u|-f ADDR [-6] [-o] -s SCHED [-p T [-M MASK]] [-b FLAGS]}; the netmask only goes
     * with persistence, as ipvsadm ignores it otherwise.
     *
     * @param persistent persistence timeout in seconds, if any
     */
    public List<String> ipvsadmServiceArgs(boolean ops, String scheduler, Optional<Integer> persistent,
                                           Optional<String> netmask, Optional<String> schedFlags) {
        java.util.ArrayList<String> a = new java.util.ArrayList<>(ipvsadmArgs());
        if (ops) {
            a.add("-o");
        }
        a.add("-s");
        a.add(scheduler);
        persistent.ifPresent(p -> {
            a.add("-p");
            a.add(Integer.toString(p));
            netmask.ifPresent(m -> {
                a.add("-M");
                a.add(m);
            });
        });
        schedFlags.ifPresent(f -> {
            a.add("-b");
            a.add(f);
        });
        return List.copyOf(a);
    }

    @Override
    public String toString() {
        return protocol.configName() + " " + address();
    }

    /** ipvsadm's listing order: protocol (TCP, UDP, FWM), then address and port or mark. */
    @Override
    public int compareTo(ServiceKey o) {
        int c = Integer.compare(protocol.ordinal(), o.protocol.ordinal());
        if (c != 0) {
            return c;
        }
        if (endpoint.isPresent() && o.endpoint.isPresent()) {
            return endpoint.get().compareTo(o.endpoint.get());
        }
        c = Long.compare(fwmark, o.fwmark);
        return c != 0 ? c : Boolean.compare(ipv6, o.ipv6);
    }
}
