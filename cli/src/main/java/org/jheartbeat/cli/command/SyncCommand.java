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
import java.util.stream.Collectors;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.SyncConfigFile;
import org.jheartbeat.core.time.TimeFormats;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.sync.config.SyncConfig;
import org.jheartbeat.sync.replication.JobState;
import org.jheartbeat.sync.replication.ReplicationService;
import org.jheartbeat.sync.replication.RunOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
public final class SyncCommand extends CommandGroup {
    /** Options shared by the sync commands. */
    abstract static class Base extends NodeCommand {
        @Mixin
        StateDirOption stateDir;

        String node() {
            try {
                return nodeName.value().isPresent() ? nodeName.value().get() : org.jheartbeat.cli.daemon.Daemon.unameN().toLowerCase(java.util.Locale.ROOT);
            } catch (IOException e) {
                return "localhost";
            }
        }

        /** sync.yaml, resolved against ha.cf/haresources when they load; exit 2 when there are no jobs. */
        SyncConfig config() throws UserException {
            if (!java.nio.file.Files.isDirectory(configDir.path())) {
                throw new UserException(ExitCodes.CONFIG, "configuration directory " + configDir.path()
                        + " does not exist; give the one holding ha.cf and sync.yaml with --config-dir");
            }
            Path file = configDir.path().toAbsolutePath().normalize().resolve(SyncConfigFile.NAME);
            if (!java.nio.file.Files.exists(file)) {
                throw new UserException(ExitCodes.CONFIG, file + " does not exist, so no replication jobs are"
                        + " configured on this node: create it with a jobs: section (format: man jheartbeat-sync.yaml)"
                        + " on both nodes, or give the directory that holds it with --config-dir");
            }
            ConfigLoadResult cluster = ConfigLoader.load(configDir.path(), Optional.empty());
            SyncConfig cfg = SyncConfigFile.load(configDir.path(), cluster.config());
            if (cfg.jobs().isEmpty()) {
                throw new UserException(ExitCodes.CONFIG, "no replication jobs configured in " + file
                        + ": add a jobs: section (format: man jheartbeat-sync.yaml)");
            }
            return cfg;
        }

        /** The group keys running on this node, from the daemon. */
        Set<String> runningHere() throws IOException, UserException {
            ControlResponse r = ControlClient.request(new StateDirectory(stateDir.path()).controlSocket(),
                    new ControlRequest.GroupsRunning());
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
                    // a run in flight: its start, not the previous run's end
                    String when = s.result() == org.jheartbeat.sync.replication.JobResult.RUNNING
                            ? s.lastStart().map(t -> " since " + TimeFormats.LOCAL_TIME.format(t))
                                    .orElse("")
                            : s.lastEnd().map(t -> " ended " + TimeFormats.LOCAL_TIME.format(t))
                                    .orElse(s.lastStart().map(t -> " started "
                                            + TimeFormats.LOCAL_TIME.format(t)).orElse(""));
                    out.printf("%s: group %s (%s), last run %s%s%n", s.job(), group, where, s.result(), when);
                    if (!s.message().isEmpty()) {
                        out.println("  " + s.message());
                    }
                    if (s.lastStart().isPresent() && !s.result().success()) {
                        out.println("  " + s.lastSuccess().map(t -> "last success " + TimeFormats.LOCAL_TIME.format(t))
                                .orElse("never succeeded"));
                    }
                    if (!here.map(h -> h.contains(group)).orElse(false)) {
                        // where the group runs its copy is the live one, not a replica
                        svc.replicaAge(s.job()).ifPresent(a -> out.printf("  replica here: %s old%n",
                                org.jheartbeat.sync.replication.SyncText.human(a)));
                    }
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

        @Option(names = "--force", description = "Run although no daemon answers, so nobody can tell where the"
                + " group runs (pushes THIS node's copy over the peer's: be sure this node has the live data)."
                + " Never overrides a daemon that says the group runs elsewhere.")
        boolean force;

        @Option(names = "--accept-loss", description = "The files missing from the source were removed on purpose:"
                + " skip the empty and max_loss guards for this run (the replica then loses them too).")
        boolean acceptLoss;

        @Override
        public Integer call() throws UserException {
            SyncConfig cfg = config();
            if (cfg.job(job).isEmpty()) {
                throw new UserException(ExitCodes.USAGE, "no job '" + job + "' in " + configDir.path().resolve(
                        SyncConfigFile.NAME) + " (jobs: " + String.join(", ", cfg.jobs().stream()
                        .map(j -> j.name()).toList()) + ")");
            }
            Set<String> here;
            String group = cfg.job(job).get().group();
            try {
                here = runningHere();
                if (!here.contains(group)) {
                    throw new UserException(ExitCodes.FAILURE, "sync job " + job + ": group " + group
                            + " does not run on " + node() + ": a run here would push this node's copy over the live"
                            + " one; run it on the node that runs the group (hb status shows where)");
                }
            } catch (IOException e) {
                if (!force) {
                    throw new UserException(ExitCodes.NOT_RUNNING, "no daemon answers on " + stateDir.path()
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
            // the command prints the outcome itself: the log would say the same thing twice
            if (org.slf4j.LoggerFactory.getLogger("sync") instanceof ch.qos.logback.classic.Logger l
                    && l.getLevel() == null) {
                l.setLevel(ch.qos.logback.classic.Level.OFF);
            }
            try (ReplicationService svc = new ReplicationService(cfg, node, () -> running, Clock.systemUTC())) {
                o = svc.runNow(job, progress, force, acceptLoss);
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
