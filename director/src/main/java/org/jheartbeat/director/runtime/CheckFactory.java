package org.jheartbeat.director.runtime;

import org.jheartbeat.director.check.Checks;
import org.jheartbeat.director.check.HealthCheck;
import org.jheartbeat.director.config.VirtualService;

/** Makes the health check of one real server of a virtual service (one instance per real). */
@FunctionalInterface
public interface CheckFactory {

    /**
     * @param virtual the service, whose {@code checktype} and {@code service} choose the check
     * @return the check
     * @throws IllegalArgumentException if the combination is not supported
     */
    HealthCheck create(VirtualService virtual);

    /** The project's checks, through {@link Checks#forService}. */
    static CheckFactory standard() {
        return v -> Checks.forService(v.checkType(), v.service(), v.checkCaFile());
    }
}
