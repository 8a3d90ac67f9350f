package org.jheartbeat.sync.replication;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A peer run's ssh connection and replica stamp. {@link #start} starts the stamp's rsync
 * ({@link StampSender}) before the copy, as the master of the run's one shared ssh connection when
 * the admin's ssh command allows it ({@link SharedSsh}); {@link #copySsh} waits until that
 * connection is up and gives the copies' remote shell; {@link #sendStamp} sends the stamp once the
 * copy succeeded; {@link #close} ends all of it: an unsent stamp stays unsent (the stamp rsync
 * gets an empty list or is killed, the peer keeps its previous stamp), no ssh of the run is left,
 * and the socket's directory is removed.
 *
 * <p>Why: a run with nothing to copy over ssh cost 1.35 times a bare rsync while the stamp had its
 * own connection (a second key exchange, sshd session and remote rsync; docs/benchmarks.md).
 */
final class PeerLink implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("sync");
    /** Waits of {@link SharedSsh#POLL_MS} for the master: 30 s, a bound that only catches a hang. */
    private static final int MASTER_POLLS = 600;

    private final String rsync;
    private final List<String> ssh;
    private final Path localDir;
    private final String peerAddress;
    private final Path remoteDir;
    private final String name;
    private final Optional<SharedSsh> shared;
    private StampSender sender;

    private PeerLink(String rsync, List<String> ssh, Path localDir, String peerAddress, Path remoteDir, String name,
                     Optional<SharedSsh> shared, Duration limit) {
        this.rsync = rsync;
        this.ssh = ssh;
        this.localDir = localDir;
        this.peerAddress = peerAddress;
        this.remoteDir = remoteDir;
        this.name = name;
        this.shared = shared;
        this.sender = new StampSender(StampSender.argv(rsync, shared.map(SharedSsh::masterSsh).orElse(ssh), localDir,
                peerAddress, remoteDir), localDir, limit, name);
    }

    /**
     * Starts the stamp's rsync; it connects while the caller goes on.
     *
     * @param rsync       the rsync program
     * @param ssh         the admin's remote shell ({@code sync.yaml ssh})
     * @param stateDir    the state directory (the socket's directory is made in it)
     * @param job         the job's name
     * @param localDir    where the stamp file is written before it is sent
     * @param peerAddress the peer's address
     * @param remoteDir   the stamp's directory on the peer
     * @param limit       the stamp rsync's limit ({@link StampSender#limit})
     * @return the link, to be closed
     */
    static PeerLink start(String rsync, List<String> ssh, Path stateDir, String job, Path localDir, String peerAddress,
                          Path remoteDir, Duration limit) {
        Optional<SharedSsh> shared;
        try {
            shared = SharedSsh.open(ssh, stateDir, job);
        } catch (IOException e) {
            LOG.warn("sync job {}: cannot make the ssh socket directory in {} ({}); the stamp gets a connection of its own",
                    job, stateDir, e.getMessage());
            shared = Optional.empty();
        }
        if (shared.isEmpty()) {
            LOG.debug("sync job {}: no shared ssh connection for ssh command {}", job, ssh);
        }
        return new PeerLink(rsync, ssh, localDir, peerAddress, remoteDir, "sync-stamp-" + job, shared, limit);
    }

    /**
     * The copies' remote shell. With a shared connection, first waits until the master is up (or
     * ended: the copies then connect on their own, as their ssh does when the socket does not answer).
     *
     * @return the remote-shell argv for the copies' rsync
     * @throws InterruptedException if interrupted while waiting (the run is being cancelled)
     */
    List<String> copySsh() throws InterruptedException {
        if (shared.isEmpty()) {
            return ssh;
        }
        try {
            if (!shared.get().awaitMaster(sender::ended, MASTER_POLLS)) {
                LOG.debug("{}: the shared ssh connection is not up; the copy connects on its own", name);
            }
        } catch (IOException e) {
            LOG.debug("{}: cannot watch {}: {}", name, shared.get().socket().getParent(), e.getMessage());
        }
        return shared.get().clientSsh();
    }

    /**
     * Sends the stamp file (written in the local directory). When the rsync waiting for it failed
     * (the shared connection dropped during the copy, or never came up), once more over a
     * connection of its own: the copy did complete, so the stamp is true whichever rsync carries it.
     *
     * @param fileName the stamp's name
     * @param wait     how long each attempt may take
     * @return how the last attempt ended
     * @throws InterruptedException if interrupted (the rsync is killed)
     */
    ProcessResult sendStamp(String fileName, Duration wait) throws InterruptedException {
        ProcessResult r = sender.send(fileName, wait);
        if (r.succeeded() || r.timedOut() || shared.isEmpty()) {
            return r;
        }
        LOG.debug("{}: stamp rsync exit {}{}; once more on a connection of its own", name, r.exitCode(),
                SyncText.lastLine(r.stderr()));
        sender.close();
        sender = new StampSender(StampSender.argv(rsync, ssh, localDir, peerAddress, remoteDir), localDir, wait, name);
        return sender.send(fileName, wait);
    }

    /** Ends the stamp's rsync if it still runs (nothing is sent), then removes the socket's directory. */
    @Override
    public void close() {
        sender.close();
        shared.ifPresent(SharedSsh::close);
    }
}
