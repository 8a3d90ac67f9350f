package org.jheartbeat.director.config;

import java.util.Objects;
import java.util.Optional;

/**
 * One {@code real=} server of a virtual service [ldirectord 4.x {@code real=}; ipvsadm 1.31
 * {@code -a}]. A {@code real=A->B} range gives one record per address.
 *
 * @param endpoint       the real server's address and port
 * @param forward        gate, masq or ipip
 * @param weight         the weight, default 1, 0..2147483647
 * @param request        this real's own check request (overrides the virtual's), if given
 * @param receive        this real's own expected answer, if given
 * @param lowerThreshold {@code l:N}, ipvsadm {@code -y}; 0 = unset
 * @param upperThreshold {@code u:N}, ipvsadm {@code -x}; 0 = unset
 * @param line           the line of ldirectord.cf it came from (0 for a generated one)
 */
public record RealServer(Endpoint endpoint, Forward forward, int weight, Optional<String> request,
        Optional<String> receive, int lowerThreshold, int upperThreshold, int line) {

    public RealServer {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(forward, "forward");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(receive, "receive");
        if (weight < 0) {
            throw new IllegalArgumentException("weight < 0: " + weight);
        }
        if (lowerThreshold < 0 || lowerThreshold > 65535 || upperThreshold < 0 || upperThreshold > 65535) {
            throw new IllegalArgumentException("thresholds must be 0..65535");
        }
    }

    /** Whether two declarations describe the same table entry and check (the line does not count). */
    public boolean sameAs(RealServer o) {
        return endpoint.equals(o.endpoint) && forward == o.forward && weight == o.weight
                && request.equals(o.request) && receive.equals(o.receive)
                && lowerThreshold == o.lowerThreshold && upperThreshold == o.upperThreshold;
    }
}
