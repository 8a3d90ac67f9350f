package org.jheartbeat.cli.runtime;

import java.io.IOException;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.media.serial.SerialMedium;
import org.jheartbeat.core.media.udp.UdpEndpoints;

/**
 * The heartbeat media of ha.cf tried on this machine the way the daemon's start uses them, so that a
 * line the daemon could not start is an ERROR at its ha.cf line, found by {@code hb config check} and by
 * the daemon itself before anything starts (exit 2, which systemd does not restart, instead of exit 1
 * and a restart loop):
 * <ul>
 *   <li>{@code ucast}/{@code bcast}: the interface exists and has an IPv4 address, the peer resolves, the
 *       kernel reaches it (or the broadcast address) through that interface ({@link UdpEndpoints}, the
 *       medium's own code), and the receive address and port can be bound;</li>
 *   <li>{@code serial}: the device exists, is a character device, is not locked by a live process and opens
 *       as a serial line ({@link SerialMedium#probe}).</li>
 * </ul>
 * With a daemon running on this machine, its own sockets and lines are busy: then the binds and the
 * serial open are not tried (only the addresses are worked out). A {@code ucast} line naming this
 * machine is skipped (Heartbeat's shared ha.cf: not used here; {@link HostChecks} reports it), and
 * {@code mcast} lines are {@link HostChecks}' (interface with an IPv4 address).
 */
public final class MediaPreflight {
    private MediaPreflight() {
    }

    /**
     * @param config        the parsed configuration
     * @param daemonRunning whether a daemon runs on this machine now (its ports and lines are then in use)
     * @return one ERROR per medium that could not start, in ha.cf order
     */
    public static List<ConfigDiagnostic> check(ClusterConfig config, boolean daemonRunning) {
        Path haCf = config.configDir().resolve("ha.cf");
        List<ConfigDiagnostic> out = new ArrayList<>();
        for (MediumDecl m : config.media()) {
            if (m instanceof MediumDecl.Mcast || HostChecks.pointsAtThisMachine(m)) {
                continue;
            }
            try {
                if (m instanceof MediumDecl.Serial s) {
                    if (!daemonRunning) {
                        SerialMedium.probe(Path.of(s.device()), s.baud());
                    }
                    continue;
                }
                UdpEndpoints at = UdpEndpoints.of(m);
                if (!daemonRunning) {
                    tryBind(at.receive(), m);
                }
            } catch (IOException e) {
                out.add(ConfigDiagnostic.error(haCf, m.line(), describe(m) + ": " + e.getMessage()));
            }
        }
        return out;
    }

    private static String describe(MediumDecl m) {
        if (m instanceof MediumDecl.Ucast u) {
            return "ucast " + u.iface() + " " + u.peer();
        }
        if (m instanceof MediumDecl.Bcast b) {
            return "bcast " + b.iface();
        }
        return "serial " + ((MediumDecl.Serial) m).device();
    }

    /** Binds and closes a UDP socket where the medium's receive socket would be bound. */
    private static void tryBind(InetSocketAddress local, MediumDecl m) throws IOException {
        try (DatagramSocket s = new DatagramSocket(null)) {
            s.setBroadcast(m instanceof MediumDecl.Bcast);
            s.bind(local);
        } catch (BindException e) {
            throw new IOException("cannot bind UDP " + local.getAddress().getHostAddress() + ":" + local.getPort()
                    + " (" + e.getMessage() + "): another program uses this port (ss -ulpn 'sport = :"
                    + local.getPort() + "' names it); stop it, or choose another udpport on both nodes (if it is"
                    + " this node's running daemon, give its --state-dir)", e);
        } catch (SocketException e) {
            throw new IOException("cannot bind UDP " + local.getAddress().getHostAddress() + ":" + local.getPort()
                    + ": " + e.getMessage(), e);
        }
    }
}
