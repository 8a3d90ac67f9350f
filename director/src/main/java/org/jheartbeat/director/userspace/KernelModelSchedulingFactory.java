package org.jheartbeat.director.userspace;

import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.userspace.sched.ServiceScheduling;

/**
 * The product's {@link SchedulingFactory}: the kernel-exact model of
 * {@link ServiceSchedulings#create(ServiceSpec, java.util.function.LongSupplier)} on the JVM's
 * monotonic clock ({@link System#nanoTime()}), with the kernel's default tunables. Registered in
 * {@code META-INF/services}; a test's own factory earlier on the class path wins.
 */
public final class KernelModelSchedulingFactory implements SchedulingFactory {

    @Override
    public ServiceScheduling apply(ServiceSpec spec) {
        return ServiceSchedulings.create(spec, System::nanoTime);
    }
}
