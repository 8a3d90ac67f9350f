package org.jheartbeat.director.userspace;

import java.util.function.LongSupplier;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.userspace.sched.IpvsService;
import org.jheartbeat.director.userspace.sched.ServiceScheduling;
import org.jheartbeat.director.userspace.sched.Tunables;

/** Creates the kernel-exact decision model of one virtual service (see {@link IpvsService}). */
public final class ServiceSchedulings {
    private ServiceSchedulings() {
    }

    /**
     * A service with no real server yet and the kernel's default settings.
     *
     * @param spec      the service ({@code ipvsadm -A}): scheduler, flags, persistence, netmask, ops
     * @param nanoClock monotonic nanoseconds (e.g. {@code System::nanoTime}; a fake in tests)
     * @return the service's decision model
     * @throws IllegalArgumentException for a scheduler the kernel does not have or an unknown
     *                                  {@code -b} flag
     */
    public static ServiceScheduling create(ServiceSpec spec, LongSupplier nanoClock) {
        return new IpvsService(spec, nanoClock, Tunables.DEFAULTS);
    }

    /**
     * As {@link #create(ServiceSpec, LongSupplier)} with other kernel settings (timeouts, the TCP
     * active-state table, {@code expire_quiescent_template}).
     *
     * @throws IllegalArgumentException as {@link #create(ServiceSpec, LongSupplier)}
     */
    public static ServiceScheduling create(ServiceSpec spec, LongSupplier nanoClock, Tunables tunables) {
        return new IpvsService(spec, nanoClock, tunables);
    }
}
