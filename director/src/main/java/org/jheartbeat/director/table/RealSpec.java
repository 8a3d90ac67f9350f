package org.jheartbeat.director.table;

import java.util.Objects;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;

/**
 * A real server as the IPVS table holds it: what {@code ipvsadm -a}/{@code -e} sets.
 *
 * @param endpoint       address and port
 * @param forward        forwarding method
 * @param weight         weight, 0 = quiesced
 * @param upperThreshold {@code -x}, 0 = none
 * @param lowerThreshold {@code -y}, 0 = none
 */
public record RealSpec(Endpoint endpoint, Forward forward, int weight, int upperThreshold, int lowerThreshold) {
    public RealSpec {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(forward, "forward");
        if (weight < 0) {
            throw new IllegalArgumentException("weight < 0");
        }
    }

    /** The same server with another weight. */
    public RealSpec withWeight(int w) {
        return new RealSpec(endpoint, forward, w, upperThreshold, lowerThreshold);
    }
}
