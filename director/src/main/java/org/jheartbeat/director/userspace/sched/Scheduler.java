package org.jheartbeat.director.userspace.sched;

import java.net.InetAddress;

/**
 * One IPVS scheduler over a service's live destination list (kernel order: newest first). The
 * hooks mirror the kernel's {@code add_dest}, {@code del_dest} and {@code upd_dest}; a scheduler
 * that has no such hook in the kernel ignores it.
 */
interface Scheduler {

    /**
     * What a scheduler may look at for one new connection.
     *
     * @param client     the client's address
     * @param clientPort the client's port (sh-port, mh-port)
     * @param virtual    the packet's destination address (lblc, lblcr, dh): the service's VIP
     */
    record Request(InetAddress client, int clientPort, InetAddress virtual) {
    }

    /** The packet's destination address of a service (lblc, lblcr, dh): its VIP, or its firewall mark as an address. */
    static InetAddress virtualAddress(org.jheartbeat.director.table.ServiceSpec s) {
        if (s.key().endpoint().isPresent()) {
            return s.key().endpoint().get().address();
        }
        long m = s.key().fwmark();
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (m >>> 24), (byte) (m >>> 16), (byte) (m >>> 8),
                (byte) m});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The chosen destination, or {@code null} when none is available. */
    Dest schedule(Request request, long nowNanos);

    /** A destination was put at the head of the list. */
    default void added(Dest d) {
    }

    /** A destination was unlinked from the list; {@code formerIndex} is where it was. */
    default void removed(Dest d, int formerIndex) {
    }

    /** A destination's weight or thresholds were edited (called for every edit, as the kernel does). */
    default void updated(Dest d) {
    }

    /** The scheduler's periodic work (lblc/lblcr garbage collection); called with the current time. */
    default void tick(long nowNanos) {
    }
}
