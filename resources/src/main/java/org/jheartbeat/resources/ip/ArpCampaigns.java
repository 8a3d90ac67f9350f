package org.jheartbeat.resources.ip;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The gratuitous-ARP runs in progress, one per (interface, address), shared by every
 * {@link IpAddrAgent} of a daemon. Releasing an address cancels its run, so a node that gave the
 * address away never announces it again afterwards (neighbours would point back at it).
 * Thread-safe.
 */
public final class ArpCampaigns {
    private final ConcurrentHashMap<String, AtomicBoolean> running = new ConcurrentHashMap<>();

    /**
     * Registers a new run for {@code iface}/{@code address}, cancelling any earlier one for it.
     *
     * @return the new run's cancellation flag (true once cancelled)
     */
    public AtomicBoolean begin(String iface, String address) {
        AtomicBoolean flag = new AtomicBoolean();
        AtomicBoolean old = running.put(key(iface, address), flag);
        if (old != null) {
            old.set(true);
        }
        return flag;
    }

    /** Cancels the run for {@code iface}/{@code address}, if any. */
    public void cancel(String iface, String address) {
        AtomicBoolean old = running.remove(key(iface, address));
        if (old != null) {
            old.set(true);
        }
    }

    /** Forgets a finished run (if it is still the registered one). */
    void finished(String iface, String address, AtomicBoolean flag) {
        running.remove(key(iface, address), flag);
    }

    private static String key(String iface, String address) {
        return iface + "/" + address;
    }
}
