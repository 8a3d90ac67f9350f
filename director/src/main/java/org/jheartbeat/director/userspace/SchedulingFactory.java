package org.jheartbeat.director.userspace;

import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.userspace.sched.ServiceScheduling;

/**
 * Makes the {@link ServiceScheduling} (the kernel-exact decision model) of one virtual service for
 * the {@link UserspaceBackend}. Implementations are found with {@link ServiceLoader}
 * ({@code META-INF/services/org.jheartbeat.director.userspace.SchedulingFactory}); the first one on
 * the class path wins.
 */
public interface SchedulingFactory extends Function<ServiceSpec, ServiceScheduling> {

    /**
     * The first factory on the class path.
     *
     * @return empty when this build has none
     */
    static Optional<SchedulingFactory> installed() {
        return ServiceLoader.load(SchedulingFactory.class, SchedulingFactory.class.getClassLoader()).findFirst();
    }
}
