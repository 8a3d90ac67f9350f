package org.jheartbeat.director.config;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Connection sync of a director pair, a jheartbeat extension of ldirectord.cf (ldirectord has none; its
 * users run {@code ipvsadm --start-daemon} by hand or from keepalived's {@code lvs_sync_daemon}).
 *
 * <p>The IPVS backend runs ipvsadm's in-kernel sync daemon on {@code syncdaemon}: master on the node whose
 * director runs, backup on the other ({@code ipvsadm --start-daemon master|backup --mcast-interface IF
 * [--syncid N]}, ipvsadm(8)). The user-space director sends its persistence templates over UDP port
 * {@link #TEMPLATE_PORT} to the {@code syncpeer} addresses that are not its own, signed with the signing key
 * of {@code syncauthkeys} (Heartbeat's authkeys); the other node's {@code hb lvs syncd} keeps them for its
 * director's next start.
 *
 * @param iface    {@code syncdaemon = IF}: the interface of the sync link (the heartbeat crossover)
 * @param syncId   {@code syncid = N} (0..255): ipvsadm's {@code --syncid}; in user space the id in each packet
 *                 (a receiver drops another id's packets, as the kernel's backup does)
 * @param peers    {@code syncpeer = ADDR ADDR}: both directors' addresses on the sync link (user space)
 * @param authKeys {@code syncauthkeys = PATH}, default {@code /etc/ha.d/authkeys} (user space)
 * @param configName the ldirectord.cf's file name: names the standby's template file (user space)
 */
public record SyncSettings(String iface, Optional<Integer> syncId, List<InetAddress> peers, Path authKeys,
                           String configName) {
    /** The UDP port of the user-space template sync (the kernel's sync daemon uses 8848). */
    public static final int TEMPLATE_PORT = 8849;

    /** Where the authkeys file is by default, as Heartbeat's. */
    public static final Path DEFAULT_AUTHKEYS = Path.of("/etc/ha.d/authkeys");

    public SyncSettings {
        Objects.requireNonNull(iface, "iface");
        Objects.requireNonNull(syncId, "syncId");
        peers = List.copyOf(peers);
        Objects.requireNonNull(authKeys, "authKeys");
        Objects.requireNonNull(configName, "configName");
    }
}
