package org.jheartbeat.resources.ip;

import java.util.Objects;
import org.jheartbeat.core.config.Ipv4;

/**
 * One unicast route with an output device, from {@code ip -4 -o route show}.
 *
 * @param network network address as int (see {@link Ipv4})
 * @param prefix  prefix length 0..32 (a destination without {@code /n} is a /32 host route)
 * @param device  the {@code dev} of the route
 * @param metric  the {@code metric}, 0 when not shown
 */
public record Route(int network, int prefix, String device, long metric) {
    public Route {
        Objects.requireNonNull(device, "device");
    }

    /** @param address candidate @return {@code true} if this route's destination contains it */
    public boolean contains(int address) {
        return Ipv4.contains(network, prefix, address);
    }

    @Override
    public String toString() {
        return Ipv4.format(network) + "/" + prefix + " dev " + device + (metric == 0 ? "" : " metric " + metric);
    }
}
