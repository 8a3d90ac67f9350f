package org.jheartbeat.director.userspace.sched;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.director.table.ConnectionEntry;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableService;

/**
 * One virtual service's decisions as the kernel's IPVS makes them (shared/facts/lvs.md section 1):
 * the real servers in the kernel's list order, the scheduler ({@code rr wrr lc wlc sed nq lblc
 * lblcr dh sh mh fo ovf}) with its exact rules and tie-breaks, weights (0 = quiescent), the
 * connection counters that feed ActiveConn/InActConn, persistence templates, and the
 * {@code --stats}/{@code --rate} counters. Pure: no I/O, time from the clock given at creation.
 *
 * <p>Not thread-safe: the data path serialises every call for one service (one lock or one
 * thread).
 */
public interface ServiceScheduling {

    /** The service's scheduler, flags or persistence changed ({@code ipvsadm -E}). */
    void update(ServiceSpec service);

    /** A real server added ({@code ipvsadm -a}): goes to the head of the kernel's list. */
    void addReal(RealSpec real);

    /** A real server's weight, forwarding or thresholds changed ({@code ipvsadm -e}). */
    void editReal(RealSpec real);

    /**
     * A real server removed ({@code ipvsadm -d}); its open connections stay counted until they
     * close, as the kernel keeps a deleted destination in its trash while it has connections.
     */
    void removeReal(InetSocketAddress real);

    /**
     * A new connection (TCP SYN, or a UDP flow's first datagram) from {@code client}: schedules it
     * (persistence first), counts it as the kernel counts a new entry (inactive until established
     * for TCP; always inactive for UDP).
     *
     * @param client the client's address and port
     * @return the connection, or empty when no real server is available (the kernel answers ICMP
     *         port unreachable; the data path refuses or closes)
     */
    Optional<Connection> open(InetSocketAddress client);

    /** The service, its real servers and figures, as {@code ipvsadm -L -n [--stats|--rate]} shows them. */
    TableService snapshot();

    /** The connection entries and persistence templates, as {@code ipvsadm -L -n -c} shows them. */
    List<ConnectionEntry> connections();

    /**
     * The valid persistence templates, for the standby director (connection sync); none without persistence.
     * Templates taken over with {@link #adopt} and not used yet are included.
     */
    default List<SyncedTemplate> templates() {
        return List.of();
    }

    /**
     * Templates replicated from the other director: a client that has none here and connects within a
     * template's remaining time goes to its real server if that server is listed and may take it (as for a
     * template of this director), else it is scheduled afresh. Bounded; expired ones are dropped.
     */
    default void adopt(List<SyncedTemplate> templates) {
    }

    /**
     * What to do when a real rejoins ({@code resetcounts}, {@code slowstart}; jheartbeat extensions the
     * kernel's IPVS does not have). A model without them ignores it.
     */
    default void rejoinPolicy(org.jheartbeat.director.config.Rejoin policy) {
    }

    /** Expires what has timed out (connection entries, templates); the data path calls it at least once a second. */
    void expire();

    /** One scheduled connection, told about its life by the data path. */
    interface Connection {

        /** The real server it goes to. */
        InetSocketAddress real();

        /** The TCP connection to the real server is established (the entry becomes active). */
        void established();

        /** One side closed (FIN): the entry leaves the active state. */
        void closing();

        /** Both sides closed or reset: the entry is kept for its TIME_WAIT/CLOSE timeout, then expires. */
        void closed();

        /**
         * Traffic passed, for the {@code --stats} and {@code --rate} counters.
         *
         * @param inPackets  client → real packets (or reads, for a user-space proxy: say which in the docs)
         * @param outPackets real → client packets
         * @param inBytes    client → real bytes
         * @param outBytes   real → client bytes
         */
        void transferred(long inPackets, long outPackets, long inBytes, long outBytes);
    }
}
