package org.jheartbeat.cli.daemon;

import java.io.IOException;
import java.util.Optional;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.resources.names.TakenHostNames;

/**
 * Decides, once at start, which node this daemon is; the name is never read again (membership, logs and
 * {@code hb status} keep it whatever {@code uname -n} says later). An explicit {@code --node-name} wins.
 * Otherwise {@code uname -n}, lowercased, as Heartbeat 3.0.6 does, unless that name is one this machine
 * took over from its peer ({@code Hostname::NAME::hostname=yes}, recorded in {@link TakenHostNames}):
 * then the daemon would start as its own peer, and it refuses (the record is under /run, so
 * it does not outlive a reboot, which gives the kernel its own host name back).
 */
public final class NodeIdentity {
    private NodeIdentity() {
    }

    /**
     * @param explicit the {@code --node-name} given, if any
     * @param unameN   {@code uname -n} now
     * @param taken    the record of host names taken over from the peer
     * @return this daemon's node name
     * @throws UserException {@link ExitCodes#CONFIG} (as a configuration check's errors) when {@code uname -n}
     *                       is a host name taken from the peer, naming the record and the own name; or when
     *                       the record cannot be read
     */
    public static NodeName decide(Optional<String> explicit, String unameN, TakenHostNames taken) throws UserException {
        if (explicit.isPresent()) {
            return NodeName.of(explicit.get());
        }
        Optional<String> own;
        try {
            own = taken.ownNameFor(unameN);
        } catch (IOException e) {
            throw new UserException(ExitCodes.CONFIG, taken.file(unameN) + ":1: cannot read the record of the taken"
                    + " host name " + unameN + ": " + e.getMessage() + "; start the daemon with --node-name NAME");
        }
        if (own.isPresent()) {
            throw new UserException(ExitCodes.CONFIG, taken.file(unameN) + ":1: uname -n says " + unameN
                    + ", but this machine took that host name over from its peer (Hostname::" + unameN
                    + "::hostname=yes) and its own name is " + own.get() + "; starting as " + unameN
                    + " would make this daemon its own peer. Start it with --node-name " + own.get()
                    + " (it then gives " + unameN + "'s names back while releasing what runs here), or with"
                    + " --node-name " + unameN + " if this machine really is " + unameN + " now");
        }
        return NodeName.of(unameN);
    }
}
