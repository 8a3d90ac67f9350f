package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.time.TimeFormats;
import org.jheartbeat.sync.backup.BackupException;
import org.jheartbeat.sync.backup.BackupOutcome;
import org.jheartbeat.sync.backup.BackupResult;
import org.jheartbeat.sync.backup.BackupService;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.backup.DiskProbe;
import org.jheartbeat.sync.backup.DiskState;
import org.jheartbeat.sync.backup.Snapshot;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb backup ...}: the removable-disk backups of {@code sync.yaml} by hand.
 * They work without the daemon; a run, list or restore waits for nobody: when the daemon (or
 * another {@code hb}) is busy with the same backup, it fails at once with "busy".
 */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = "Removable-disk backups (sync.yaml backups:): status, run, list, restore, verify.",
        subcommands = {BackupCommand.Status.class, BackupCommand.Run.class, BackupCommand.ListSnapshots.class,
            BackupCommand.Restore.class, BackupCommand.Verify.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:failure (disk missing, wrong or full, rsync or verify failed, busy; a "
            + "snapshot that differs from its sources)",
            "2:invalid or missing sync.yaml configuration", "64:usage error (unknown backup name, bad option)"})
public final class BackupCommand extends CommandGroup {
    private static final DateTimeFormatter TIME = TimeFormats.LOCAL_TIME;

    /**
     * Reads {@code <configDir>/sync.yaml} with the daemon's parser ({@link
     * org.jheartbeat.cli.runtime.SyncConfigFile}); a missing file means no backups.
     *
     * @param configDir configuration directory, normally {@code /etc/ha.d}
     * @return the configuration
     * @throws UserException CONFIG ({@code sync.yaml:LINE: ...}) when the file is invalid
     */
    static SyncConfig loadSyncConfig(Path configDir) throws UserException {
        return org.jheartbeat.cli.runtime.SyncConfigFile.load(configDir, java.util.Optional.empty());
    }

    /** Options and helpers shared by every {@code hb backup} command. */
    abstract static class Base implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ConfigDirOption configDir;

        SyncConfig config() throws UserException {
            Path file = configDir.path().toAbsolutePath().normalize().resolve("sync.yaml");
            if (!java.nio.file.Files.exists(file)) {
                throw new UserException(ExitCodes.CONFIG, file + " does not exist, so no backups are configured on"
                        + " this node: create it with a backups: section (format: man jheartbeat-sync.yaml), or give"
                        + " the directory that holds it with --config-dir");
            }
            SyncConfig cfg = loadSyncConfig(configDir.path());
            if (cfg.backups().isEmpty()) {
                throw new UserException(ExitCodes.CONFIG, "no backups configured in " + file
                        + ": add a backups: section (format: man jheartbeat-sync.yaml)");
            }
            return cfg;
        }

        /** One backup's part of a command: prints its lines, says whether it succeeded. */
        @FunctionalInterface
        interface PerBackup {
            boolean apply(BackupService svc, BackupSpec backup);
        }

        /**
         * Runs {@code action} for the named backup (all when name is null) on one service.
         *
         * @return {@link ExitCodes#OK}, or {@link ExitCodes#FAILURE} if it failed for any backup
         */
        int eachBackup(String name, PerBackup action) throws UserException {
            SyncConfig cfg = config();
            int code = ExitCodes.OK;
            try (BackupService svc = service(cfg)) {
                for (BackupSpec b : select(cfg, name)) {
                    if (!action.apply(svc, b)) {
                        code = ExitCodes.FAILURE;
                    }
                }
            }
            return code;
        }

        /** The named backups, or all when name is null. */
        List<BackupSpec> select(SyncConfig cfg, String name) throws UserException {
            if (name == null) {
                return cfg.backups();
            }
            return List.of(cfg.backup(name).orElseThrow(() -> new UserException(ExitCodes.USAGE, "no backup '" + name
                    + "' in " + configDir.path().resolve("sync.yaml") + " (configured: "
                    + String.join(", ", cfg.backups().stream().map(BackupSpec::name).toList()) + ")")));
        }

        /**
         * The service, with its "backup" logger limited to errors: the command prints each outcome
         * itself, so the log's warning would say the same thing twice.
         */
        BackupService service(SyncConfig cfg) {
            if (LoggerFactory.getLogger("backup") instanceof ch.qos.logback.classic.Logger l && l.getLevel() == null) {
                l.setLevel(ch.qos.logback.classic.Level.ERROR);
            }
            return new BackupService(cfg, Clock.systemUTC());
        }

        PrintWriter out() {
            return spec.commandLine().getOut();
        }

        PrintWriter err() {
            return spec.commandLine().getErr();
        }
    }

    /**
     * {@code hb backup status}: for every backup, whether its disk is there now (probed with
     * blkid like a run does, not the state last recorded) and the last run from the state file
     * (as the daemon or hb left it).
     */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Whether each backup's disk is there now, and its last run.")
    public static final class Status extends Base {
        @Override
        public Integer call() throws UserException {
            SyncConfig cfg = config();
            int code = ExitCodes.OK;
            try (BackupService svc = service(cfg)) {
                List<BackupState> states = svc.status();
                for (int i = 0; i < states.size(); i++) {
                    BackupSpec b = cfg.backups().get(i);
                    String disk;
                    try {
                        disk = diskLine(b, svc.probe(b.name()));
                    } catch (IOException e) {
                        disk = "disk " + b.diskToken() + " unknown: " + e.getMessage();
                        code = ExitCodes.FAILURE;
                    }
                    out().println(b.name() + ": " + disk);
                    lastRun(states.get(i)).forEach(l -> out().println("  " + l));
                    scheduleLines(b, states.get(i), Clock.systemUTC().instant()).forEach(l -> out().println("  " + l));
                }
            }
            return code;
        }
    }

    /** The disk line of {@code hb backup status} for what {@link BackupService#probe} found now. */
    static String diskLine(BackupSpec b, DiskProbe probe) {
        return switch (probe.state()) {
            case PRESENT -> "disk " + b.diskToken() + " present" + probe.device().map(d -> " at " + d).orElse("");
            case MISSING -> "disk " + b.diskToken() + " missing (insert it: a snapshot is taken on insertion by the "
                    + "daemon, or with hb backup run " + b.name() + ")";
            case WRONG_DISK -> "disk " + b.diskToken() + ": " + probe.message();
        };
    }

    /** The last-run lines of {@code hb backup status}, from the stored state; times are local. */
    static List<String> lastRun(BackupState s) {
        if (s.lastStart().isEmpty() && s.lastEnd().isEmpty()) {
            return List.of("last run: never");
        }
        String snaps = ", " + s.snapshots() + " snapshot(s)" + s.newestSnapshot().map(n -> ", newest " + n).orElse("");
        if (s.lastEnd().isEmpty()) {
            return List.of("last run: started " + TIME.format(s.lastStart().get()) + ", not finished (running now, "
                    + "or interrupted)" + snaps);
        }
        String head = "last run: " + s.lastResult() + " at " + TIME.format(s.lastEnd().get()) + snaps;
        return s.lastRunMessage().isEmpty() ? List.of(head) : List.of(head, s.lastRunMessage());
    }

    /**
     * The schedule lines of {@code hb backup status}, each only when it applies: the profile of a
     * whole-system backup, the schedule with its next time after {@code now} (cron fields are UTC,
     * as the daemon reads them; shown in local time), and the last scheduled snapshot skipped for
     * want of the disk, until a run clears it.
     */
    static List<String> scheduleLines(BackupSpec b, BackupState s, java.time.Instant now) {
        List<String> out = new java.util.ArrayList<>();
        if (b.system()) {
            out.add("profile: system (one file system per path: " + String.join(", ", b.paths().stream()
                    .map(Path::toString).toList()) + ")");
        }
        if (b.schedule().isPresent()) {
            Optional<java.time.Instant> next = org.jheartbeat.sync.config.CronSchedule.parse(b.schedule().get())
                    .nextAfter(now.atZone(java.time.ZoneOffset.UTC)).map(java.time.ZonedDateTime::toInstant);
            out.add("schedule: " + b.schedule().get() + " (while the disk is in the drawer; next "
                    + next.map(TIME::format).orElse("never") + ")");
        }
        s.lastSkip().ifPresent(l -> out.add("skipped: " + l));
        return out;
    }

    /** {@code hb backup run [NAME]}: one snapshot now, of NAME or of every backup. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Take a snapshot now (the disk must be present): of NAME, or of every backup.")
    public static final class Run extends Base {
        @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "Backup name (default: all).")
        String name;

        @Override
        public Integer call() throws UserException {
            return eachBackup(name, (svc, b) -> {
                BackupOutcome o = svc.runNow(b.name());
                (o.ok() ? out() : err()).println((o.ok() ? "" : "hb: ") + "backup " + b.name() + ": "
                        + o.result() + ": " + o.message() + insertHint(o.result(), o.disk()));
                return o.ok();
            });
        }
    }

    /** {@code hb backup list [NAME]}: the snapshots on the disk. */
    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List the snapshots on the disk (mounted read-only for it if needed).")
    public static final class ListSnapshots extends Base {
        @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "Backup name (default: all).")
        String name;

        @Override
        public Integer call() throws UserException {
            return eachBackup(name, (svc, b) -> {
                try {
                    List<Snapshot> snaps = svc.list(b.name());
                    out().println(b.name() + " on " + b.diskToken() + ": " + snaps.size() + " snapshot(s)");
                    for (Snapshot s : snaps) {
                        out().println(String.format(Locale.ROOT, "  %s  %s  %8d files  %s", s.name(),
                                s.taken(), s.files(), human(s.bytes())));
                    }
                    return true;
                } catch (BackupException e) {
                    err().println("hb: backup " + b.name() + ": " + e.getMessage() + insertHint(e.result(), e.disk()));
                    return false;
                }
            });
        }
    }

    /**
     * {@code hb backup restore PATH}: a copy of PATH from a snapshot, next to the original by
     * default, or into {@code --to DIR} as {@code DIR/<name of PATH>}.
     */
    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = "Copy PATH (a file or directory) out of a snapshot: by default into a new "
                    + "PATH.restored-SNAPSHOT next to it; with --to DIR into DIR/<name of PATH>.")
    public static final class Restore extends Base {
        @Parameters(index = "0", paramLabel = "PATH", description = "Absolute path as it was backed up.")
        Path path;

        @Option(names = "--snapshot", paramLabel = "S", description = "Snapshot name (default: the newest).")
        String snapshot;

        @Option(names = "--to", paramLabel = "DIR", description = "Directory to restore into, created if missing: "
                + "the copy is written as DIR/<name of PATH> (a file or a directory), never over an existing one "
                + "unless --force (default: PATH.restored-SNAPSHOT next to PATH).")
        Path to;

        @Option(names = "--backup", paramLabel = "NAME",
                description = "Backup to restore from (default: the one whose paths contain PATH).")
        String backup;

        @Option(names = "--force", description = "Overwrite an existing destination file, or write into an existing, "
                + "non-empty destination directory.")
        boolean force;

        @Override
        public Integer call() throws UserException {
            SyncConfig cfg = config();
            Path abs = path.toAbsolutePath().normalize();
            BackupSpec b;
            if (backup != null) {
                b = select(cfg, backup).get(0);
            } else {
                List<BackupSpec> holders = cfg.backups().stream()
                        .filter(s -> s.paths().stream().anyMatch(abs::startsWith)).toList();
                if (holders.isEmpty()) {
                    throw new UserException(ExitCodes.FAILURE, abs + " is not under the paths of any backup (backed up: "
                            + String.join(", ", cfg.backups().stream().flatMap(s -> s.paths().stream())
                                    .map(Path::toString).toList()) + ")");
                }
                if (holders.size() > 1) {
                    throw new UserException(ExitCodes.USAGE, abs + " is in several backups ("
                            + String.join(", ", holders.stream().map(BackupSpec::name).toList()) + "): pass --backup");
                }
                b = holders.get(0);
            }
            try (BackupService svc = service(cfg)) {
                Path dest = svc.restore(b.name(), abs, Optional.ofNullable(snapshot),
                        Optional.ofNullable(to).map(p -> p.toAbsolutePath().normalize()), force);
                out().println("restored " + abs + " to " + dest);
                return ExitCodes.OK;
            } catch (BackupException e) {
                throw new UserException(ExitCodes.FAILURE, "backup " + b.name() + ": " + e.getMessage()
                        + insertHint(e.result(), e.disk()));
            }
        }
    }

    /**
     * {@code hb backup verify [NAME] [--snapshot S]}: compares a snapshot with its sources as they are
     * now; exit 1 when they differ.
     */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Compare a snapshot (default: the newest) with its sources as they are now, by content "
                    + "and by mode, owner and group; list every difference; exit 1 when there is one.")
    public static final class Verify extends Base {
        @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "Backup name (default: all).")
        String name;

        @Option(names = "--snapshot", paramLabel = "S", description = "Snapshot name (default: the newest).")
        String snapshot;

        @Override
        public Integer call() throws UserException {
            return eachBackup(name, (svc, b) -> {
                try {
                    org.jheartbeat.sync.backup.SnapshotComparison c = svc.verify(b.name(), Optional.ofNullable(snapshot));
                    if (c.matches()) {
                        out().println("backup " + b.name() + ": snapshot " + c.snapshot() + " matches its sources ("
                                + String.join(", ", b.paths().stream().map(Path::toString).toList()) + ")");
                        return true;
                    }
                    out().println("backup " + b.name() + ": snapshot " + c.snapshot() + " differs from its sources:");
                    c.differences().forEach(d -> out().println("  " + d));
                    err().println("hb: backup " + b.name() + ": snapshot " + c.snapshot() + " differs from its sources in "
                            + c.differences().size() + " place(s) (changes made since the snapshot count too)");
                    return false;
                } catch (BackupException e) {
                    err().println("hb: backup " + b.name() + ": " + e.getMessage() + insertHint(e.result(), e.disk()));
                    return false;
                }
            });
        }
    }

    /** What to do when the disk was not found (appended to the one-line message). */
    static String insertHint(BackupResult result, DiskState disk) {
        return result == BackupResult.REFUSED && disk == DiskState.MISSING ? " (insert the disk and try again)" : "";
    }

    static String human(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        double v = bytes;
        String[] units = {"kB", "MB", "GB", "TB"};
        int i = -1;
        while (v >= 1000 && i < units.length - 1) {
            v /= 1000;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
    }
}
