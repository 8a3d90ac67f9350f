package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.jheartbeat.cli.ExitCodes;
import org.jheartbeat.cli.UserException;
import org.jheartbeat.cli.runtime.SyncConfigFile;
import org.jheartbeat.cli.runtime.SyncRuntime;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.sync.config.SyncConfig;
import org.jheartbeat.sync.replication.JobState;
import org.jheartbeat.sync.replication.ReplicationService;
import org.jheartbeat.sync.replication.RunOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb sync status|run}: the replication jobs of {@code sync.yaml}. State comes from the job
 * state files (written by the daemon and by {@code hb sync run}); where each group runs comes from
 * the daemon. A manual run takes the same per-job lock as the daemon, so the two never overlap.
 */
@Command(name = "sync", mixinStandardHelpOptions = true,
        description = "Data replication jobs (sync.yaml jobs:): status, run one now.",
        subcommands = {SyncCommand.Status.class, SyncCommand.Run.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:the run failed or was refused", "2:invalid sync.yaml",
            "3:no daemon running (run needs it to know where the group runs; see --force)", "64:usage error"})
public final class SyncCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("hb sync: a command is required");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** Options shared by the sync commands. */
    abstract static class Base implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--config-dir", paramLabel = "DIR", defaultValue = "/etc/ha.d",
                description = "Configuration directory with ha.cf, haresources, sync.yaml (default: ${DEFAULT-VALUE}).")
        Path configDir;

        @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
                description = "The daemon's state directory (default: ${DEFAULT-VALUE}).")
        Path stateDir;

        @Option(names = "--node-name", paramLabel = "NAME",
                description = "This node's name, as the daemon's --node-name (default: uname -n, lowercased).")
        String nodeName;

        String node() {
            try {
                return nodeName != null ? nodeName : DaemonCommand.unameN().toLowerCase(java.util.Locale.ROOT);
            } catch (IOException e) {
                return "localhost";
            }
        }

        /** sync.yaml, resolved against ha.cf/haresources when they load; exit 2 when there are no jobs. */
        SyncConfig config() throws UserException {
            ConfigLoadResult cluster = ConfigLoader.load(configDir, Optional.empty());
            SyncConfig cfg = SyncConfigFile.load(configDir, cluster.config());
            if (cfg.jobs().isEmpty()) {
                throw new UserException(ExitCodes.CONFIG, "no replication jobs configured in "
                        + configDir.resolve(SyncConfigFile.NAME) + " (add a jobs: section)");
            }
            return cfg;
        }

        /** The group keys running on this node, from the daemon. */
        Set<String> runningHere() throws IOException, UserException {
            ControlResponse r = ControlClient.request(new StateDirectory(stateDir).controlSocket(),
                    DaemonCommand.GROUPS_RUNNING);
            if (!r.ok()) {
                throw new UserException(ExitCodes.FAILURE, "daemon refused: " + r.error());
            }
            return Arrays.stream(r.body().split("\n")).filter(s -> !s.isBlank()).collect(Collectors.toSet());
        }
    }

    /** {@code hb sync status}: every job's last run, and whether its group runs here. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Last start, end, result, bytes and files of every job; replica ages.")
    public static final class Status extends Base {
        @Override
        public Integer call() throws UserException {
            SyncConfig cfg = config();
            PrintWriter out = spec.commandLine().getOut();
            Optional<Set<String>> here;
            try {
                here = Optional.of(runningHere());
            } catch (IOException e) {
                here = Optional.empty();
            }
            try (ReplicationService svc = new ReplicationService(cfg, node(), Set::of, Clock.systemUTC())) {
                for (JobState s : svc.status()) {
                    String group = cfg.job(s.job()).orElseThrow().group();
                    String where = here.map(h -> h.contains(group) ? "runs here" : "not here")
                            .orElse("daemon not running");
                    out.printf("%s: group %s (%s), last run %s%s%n", s.job(), group, where, s.result(),
                            s.lastEnd().map(t -> " ended " + t).orElse(s.lastStart().map(t -> " started " + t)
                                    .orElse("")));
                    if (!s.message().isEmpty()) {
                        out.println("  " + s.message());
                    }
                    if (s.lastStart().isPresent() && !s.result().success()) {
                        out.println("  " + s.lastSuccess().map(t -> "last success " + t).orElse("never succeeded"));
                    }
                    svc.replicaAge(s.job()).ifPresent(a -> out.printf("  replica here: %s old%n",
                            org.jheartbeat.sync.replication.ReplicationRunner.human(a)));
                }
            }
            return ExitCodes.OK;
        }
    }

    /** {@code hb sync run JOB}: one run now, with rsync's progress. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run one job now, showing progress; only on the node that runs the job's group.")
    public static final class Run extends Base {
        @Parameters(index = "0", paramLabel = "JOB", description = "Job name (see hb sync status).")
        String job;

        @Option(names = "--force", description = "Run even when the daemon is not running or the group runs on"
                + " the other node (pushes THIS node's copy over the replica: be sure).")
        boolean force;

        @Override
        public Integer call() throws UserException {
            SyncConfig cfg = config();
            if (cfg.job(job).isEmpty()) {
                throw new UserException(ExitCodes.USAGE, "no job '" + job + "' in " + configDir.resolve(
                        SyncConfigFile.NAME) + " (jobs: " + String.join(", ", cfg.jobs().stream()
                        .map(j -> j.name()).toList()) + ")");
            }
            Set<String> here;
            try {
                here = runningHere();
            } catch (IOException e) {
                if (!force) {
                    throw new UserException(ExitCodes.NOT_RUNNING, "no daemon answers on " + stateDir
                            + ": cannot tell where group " + cfg.job(job).get().group() + " runs; start the daemon,"
                            + " or use --force to push this node's copy anyway");
                }
                here = Set.of();
            }
            Set<String> running = here;
            String node = node();
            PrintWriter out = spec.commandLine().getOut();
            OutputStream progress = new OutputStream() {
                @Override
                public void write(int b) {
                    out.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    out.write(new String(b, off, len, StandardCharsets.UTF_8));
                    out.flush();
                }
            };
            RunOutcome o;
            try (ReplicationService svc = new ReplicationService(cfg, node, () -> running, Clock.systemUTC())) {
                o = svc.runNow(job, progress, force);
            }
            out.flush();
            if (o.ok()) {
                out.println("sync job " + job + ": " + o.result() + ": " + o.message());
                return ExitCodes.OK;
            }
            throw new UserException(ExitCodes.FAILURE, "sync job " + job + ": " + o.result() + ": " + o.message());
        }
    }
}
