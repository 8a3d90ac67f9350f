package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.ConfigPush;
import org.jheartbeat.cli.runtime.SshTransport;

/**
 * Removes both stages of {@code hb setup} ({@code DIR/.hb-setup} here and on the peer) when the JVM is stopped
 * (SIGTERM, SIGINT: Ctrl-C) between staging and the move into place: a JVM shutdown hook, registered while the
 * stages exist and removed before the move begins (a stop during the move is left to the next run, which
 * removes what is left; removing a stage while the peer moves files out of it would leave it half applied).
 * The peer's removal is one ssh call bounded by {@link #REMOVE_TIMEOUT_S}: a JVM that was told to stop must not
 * wait on a peer that does not answer. SIGKILL and a power cut run no hook: the next run removes the stages
 * before it does anything else ({@code SetupCommand}).
 */
final class SetupStageGuard implements AutoCloseable {
    /** How long the removal on the peer may take, in seconds, at a stop or after a failure. */
    static final long REMOVE_TIMEOUT_S = 5;

    private final Path stage;
    private final SshTransport ssh;
    private final String rstage;
    private final PrintWriter err;
    private final String me;
    private final String peer;
    private final Thread hook;
    private volatile boolean armed = true;

    private SetupStageGuard(Path stage, SshTransport ssh, String rstage, PrintWriter err, String me, String peer) {
        this.stage = stage;
        this.ssh = new SshTransport(ssh.ssh(), ssh.host(), Math.min(ssh.timeoutS(), REMOVE_TIMEOUT_S));
        this.rstage = rstage;
        this.err = err;
        this.me = me;
        this.peer = peer;
        this.hook = new Thread(this::stopped, "hb-setup-stage-removal");
    }

    /**
     * Registers the hook; {@link #close()} unregisters it.
     *
     * @param stage  this node's stage
     * @param ssh    the peer's ssh (its timeout is cut to {@link #REMOVE_TIMEOUT_S} for the removal)
     * @param rstage the peer's stage
     */
    static SetupStageGuard arm(Path stage, SshTransport ssh, String rstage, PrintWriter err, String me, String peer) {
        SetupStageGuard g = new SetupStageGuard(stage, ssh, rstage, err, me, peer);
        Runtime.getRuntime().addShutdownHook(g.hook);
        return g;
    }

    /** Runs at a stop while armed: removes both stages and says so in one line. */
    void stopped() {
        if (!armed) {
            return;
        }
        Optional<String> left = removeBoth(stage, ssh, rstage, me, peer);
        err.println("hb: setup: stopped before the files were moved into place; nothing moved into place, "
                + left.orElse("the stages removed on " + me + " and " + peer));
        err.flush();
    }

    /**
     * Removes this node's stage and, with one ssh call, the peer's.
     *
     * @return what could not be removed, as a clause for a message; empty when both are gone
     */
    static Optional<String> removeBoth(Path stage, SshTransport ssh, String rstage, String me, String peer) {
        StringBuilder left = new StringBuilder();
        try {
            SetupApply.deleteTree(stage);
        } catch (IOException e) {
            left.append(stage).append(" remains on ").append(me).append(" (").append(e.getMessage()).append(')');
        }
        String why;
        try {
            SshTransport.Reply r = ssh.run("rm -rf " + ConfigPush.shQuote(rstage), new byte[0]);
            why = r.code() == 0 ? null : ssh.describeFailure(r, "", "--peer");
        } catch (UserException e) {
            why = e.getMessage();
        }
        if (why != null) {
            left.append(left.length() == 0 ? "" : " and ").append(rstage).append(" may remain on ").append(peer)
                    .append(" (").append(why).append(')');
        }
        return left.length() == 0 ? Optional.empty() : Optional.of(left + "; the next hb setup removes it");
    }

    /** Disarms the hook: the stages are gone, or the move into place begins. */
    @Override
    public void close() {
        armed = false;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already stopping: the hook runs, disarmed, and does nothing
        }
    }
}
