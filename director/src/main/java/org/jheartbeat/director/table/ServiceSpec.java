package org.jheartbeat.director.table;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.config.VirtualService;

/**
 * A virtual service as the IPVS table holds it: what {@code ipvsadm -A}/{@code -E} sets.
 *
 * @param key        protocol and address, or mark
 * @param scheduler  the scheduler name ({@code -s})
 * @param persistent the persistence timeout in seconds ({@code -p}), if persistent
 * @param netmask    the persistence granularity ({@code -M}), if set and not /32 (/128)
 * @param ops        one-packet scheduling ({@code -o})
 * @param schedFlags scheduler flags ({@code -b}), if any
 */
public record ServiceSpec(ServiceKey key, String scheduler, Optional<Integer> persistent, Optional<String> netmask,
        boolean ops, Optional<String> schedFlags) {

    public ServiceSpec {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(persistent, "persistent");
        Objects.requireNonNull(netmask, "netmask");
        Objects.requireNonNull(schedFlags, "schedFlags");
        if (persistent.isEmpty()) {
            netmask = Optional.empty();
        }
        if (netmask.isPresent() && (netmask.get().equals("255.255.255.255") || netmask.get().equals("128"))) {
            netmask = Optional.empty();
        }
    }

    /** The service a virtual= block asks for. */
    public static ServiceSpec of(VirtualService v) {
        return new ServiceSpec(v.key(), v.scheduler(), v.persistent(), v.netmask(), v.ops(), v.schedFlags());
    }

    /**
     * ipvsadm's service arguments in ldirectord's order:
     * {@code -t|-u|-f ADDR [-6] [-o] -s SCHED [-p T [-M MASK]] [-b FLAGS]}.
     */
    public List<String> flags() {
        return key.ipvsadmServiceArgs(ops, scheduler, persistent, netmask, schedFlags);
    }
}
