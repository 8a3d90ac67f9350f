package org.jheartbeat.stonith.fencing;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.loop.Fencer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's {@link Fencer} when the admin asked for self-fencing on a stop failure
 * ({@code hb daemon --self-fence-command CMD}): fencing the peer and status go to the STONITH
 * device's fencer; resetting this node runs CMD with {@code sh -c} on its own thread (e.g.
 * {@code systemctl reboot --force --force}, Heartbeat's reboot after a failed stop), with the
 * reason in {@code HB_SELF_FENCE_REASON}. A CMD that returns without the node going down is
 * logged CRIT: the group then stays blocked here (the peer was told it resets itself, so it starts
 * the group once this node is declared dead: the admin chose that risk by asking for self-fencing).
 */
public final class SelfFencingFencer implements Fencer {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");
    /** How long CMD may run before it is killed, in s. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);

    private final Fencer device;
    private final String command;
    private final ProcessRunner runner;

    /**
     * @param device  fences the peer and answers status (may be {@link Fencer#NONE})
     * @param command the shell command that resets this node
     * @param runner  runs it
     */
    public SelfFencingFencer(Fencer device, String command, ProcessRunner runner) {
        this.device = Objects.requireNonNull(device, "device");
        this.command = Objects.requireNonNull(command, "command");
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    @Override
    public CompletableFuture<Result> fence(NodeName node) {
        return device.fence(node);
    }

    @Override
    public CompletableFuture<Result> status() {
        return device.status();
    }

    @Override
    public void fenceSelf(String reason) {
        Thread t = new Thread(() -> run(reason), "hb-self-fence");
        t.setDaemon(true);
        t.start();
    }

    /** Runs the command; returns what happened, for the log and tests. */
    Optional<ProcessResult> run(String reason) {
        LOG.error(org.jheartbeat.core.loop.ClusterLoop.CRIT, "Self-fencing: {}; running [{}]", reason, command);
        try {
            ProcessResult r = runner.run(new ProcessSpec(List.of("/bin/sh", "-c", command),
                    java.util.Map.of("HB_SELF_FENCE_REASON", reason), COMMAND_TIMEOUT));
            LOG.error(org.jheartbeat.core.loop.ClusterLoop.CRIT, "Self-fence command returned {} and this node is"
                    + " still up: the group stays blocked here; reset this node by hand", r.exitCode());
            return Optional.of(r);
        } catch (IOException e) {
            LOG.error(org.jheartbeat.core.loop.ClusterLoop.CRIT, "Self-fence command [{}] could not run: {}; reset"
                    + " this node by hand", command, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        device.close();
    }
}
