package org.jheartbeat.director.table;

import java.util.List;

/**
 * Where the virtual-service table lives: the kernel's IPVS driven through ipvsadm
 * ({@link IpvsadmBackend}) or, later, a user-space director. The director only ever calls these
 * methods from its one decision thread.
 */
public interface TableBackend {

    /** A short name for logs ({@code ipvs}). */
    String name();

    /**
     * Reads the table's structure (services and real servers, no figures), to resync after a
     * restart or a failed apply.
     *
     * @throws BackendException if it cannot be read
     */
    TableSnapshot read() throws BackendException;

    /**
     * Reads the table with the figures a status view needs.
     *
     * @param view        which figures
     * @param connections also read the connection entries
     * @throws BackendException if it cannot be read
     */
    TableSnapshot status(ListView view, boolean connections) throws BackendException;

    /**
     * Applies commands in order. On failure the backend retries what is not yet in effect; if it
     * still fails it throws, naming the commands not applied (the others are in effect).
     *
     * @throws BackendException after the retries
     */
    void apply(List<TableCommand> commands) throws BackendException;

    /**
     * One line about the backend's own data path for {@code hb lvs status --stats}: its bounds and what it
     * refused or dropped. The kernel's IPVS has none here ({@code ipvsadm} shows its table).
     */
    default java.util.Optional<String> dataPath() {
        return java.util.Optional.empty();
    }

    /**
     * Connection sync: this node's director has started (a takeover), so it sends its connection state to the
     * other director ({@code syncdaemon}); any receiving role ends. Called once after the start sequence.
     *
     * @throws BackendException if the sync could not be started (the director runs on without it)
     */
    default void syncActive(org.jheartbeat.director.config.SyncSettings sync) throws BackendException {
    }

    /**
     * Connection sync: this node's director is stopping (standby or release), so it stops sending and, where
     * the backend keeps a receiver of its own (the kernel's backup daemon), starts receiving from the other.
     *
     * @throws BackendException if a step failed (the others are done)
     */
    default void syncStandby(org.jheartbeat.director.config.SyncSettings sync) throws BackendException {
    }

    /**
     * Whether this backend applies {@code resetcounts}/{@code slowstart} itself for the least-connection schedulers
     * (lc, wlc, sed, nq): the user-space director does; the kernel's IPVS cannot (its counters cannot be reset from
     * user space), so the director ramps weights through {@link #apply} instead.
     */
    default boolean appliesRejoinRules() {
        return false;
    }

    /**
     * A service's rejoin rules, after each start or reload (decision thread). Ignored unless
     * {@link #appliesRejoinRules()}; a service the backend does not hold is ignored too.
     */
    default void rejoinRules(org.jheartbeat.director.config.ServiceKey service,
            org.jheartbeat.director.config.Rejoin rules) {
    }
}
