package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.report.TimeSpec;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.EventText;
import org.jheartbeat.core.journal.JournalFiles;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.time.WallClocks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hb events [--since WHEN] [--json] [--kind K,...]}: this node's event journal (the daemon's, asked over
 * the control socket, merged by time with the directors' journals in the same state directory), one line per
 * event, oldest first; with no daemon running, the journal files are read directly (a crashed daemon's journal
 * is what an admin wants) and standard error says so.
 */
@Command(name = "events", mixinStandardHelpOptions = true,
        description = {"Show this node's event journal: nodes dead and alive, links, fencing, resource groups"
                + " starting and started with how long it took, hand-overs with who asked, maintenance, reloads,"
                + " the director's real servers. With no daemon running, its journal files are read directly."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:shown", "1:failed", "3:no state directory (--state-dir)", "4:permission denied",
            "64:usage error"})
public final class EventsCommand implements Callable<Integer> {
    /** Most events shown (one control answer's bound). */
    static final int MAX = ControlRequest.MAX_EVENTS;

    @Spec
    CommandSpec spec;

    @Mixin
    StateDirOption stateDir;

    @Option(names = "--since", paramLabel = "WHEN", description = "Only events at or after WHEN: a time ago (90s,"
            + " 30min, 2h, 1h30m, 3d, 1w), an ISO-8601 time (2026-12-06T03:00, 2026-12-06T03:00:00Z, 2026-12-06) in"
            + " local time unless it names its offset, or @EPOCH_MS. Default: all kept.")
    String since;

    @Option(names = "--json", description = "One JSON object per line, as the journal keeps them (fields seq, time,"
            + " ms, node, kind, subject, cause, by, duration_ms).")
    boolean json;

    @Option(names = "--kind", paramLabel = "KIND", split = ",",
            description = "Only these kinds, e.g. node-dead,fence-confirmed,group-started (see docs/reference.md).")
    List<String> kinds = new ArrayList<>();

    /** Now, and the zone local times are read and shown in; fields so tests can fix them. */
    Clock clock = WallClocks.system();
    ZoneId zone = ZoneId.systemDefault();

    @Override
    public Integer call() throws Exception {
        // before 1970 means everything kept
        long from = since == null ? 0 : Math.max(0, sinceMillis(since, clock, zone));
        Set<EventKind> only = kinds(kinds);
        checkStateDir(stateDir.path());
        if (from > clock.millis()) {
            // not an error (a script may ask for "since the next run"), but an empty answer deserves a reason
            spec.commandLine().getErr().println("hb: events: --since " + since + " is in the future; no event is"
                    + " that recent");
            spec.commandLine().getErr().flush();
        }
        PrintWriter out = spec.commandLine().getOut();
        for (ClusterEvent e : events(from, only)) {
            out.println(json ? EventCodec.toJson(e) : EventText.line(e, zone));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The daemon's events (asked, or read when it is not running) and the directors', merged and filtered. */
    private List<ClusterEvent> events(long from, Set<EventKind> only) throws IOException, UserException {
        Path dir = stateDir.path();
        List<List<ClusterEvent>> all = new ArrayList<>();
        boolean fromFiles = false;
        try {
            ControlResponse r = ControlClient.request(new StateDirectory(dir).controlSocket(),
                    new ControlRequest.Events(from, MAX));
            if (r.error().startsWith("bad request: unknown request")) {
                fromFiles = note("the daemon on " + dir + " does not answer 'events' (an older version)");
            } else if (!r.ok()) {
                throw new UserException(ExitCodes.FAILURE, "events: " + r.error());
            } else {
                List<ClusterEvent> daemon = new ArrayList<>();
                r.body().lines().forEach(l -> EventCodec.parse(l).ifPresent(daemon::add));
                all.add(daemon);
            }
        } catch (ControlClient.NotRunningException e) {
            fromFiles = note("no daemon answers on " + dir);
        }
        for (String name : JournalFiles.journals(dir)) {
            if (fromFiles || !name.equals(JournalFiles.DAEMON)) {
                all.add(JournalFiles.read(dir, name, from, Integer.MAX_VALUE));
            }
        }
        List<List<ClusterEvent>> kept = all.stream()
                .map(l -> l.stream().filter(e -> only.isEmpty() || only.contains(e.kind())).toList()).toList();
        return JournalFiles.newest(JournalFiles.merge(kept), MAX);
    }

    /**
     * A state directory that is not one is said, not read as "no events": a typo in {@code --state-dir} would
     * otherwise look like a quiet cluster.
     *
     * @throws UserException ({@link ExitCodes#NOT_RUNNING}, as {@code hb status} and the other commands that ask
     *                       the daemon for a bad {@code --state-dir}) naming the directory and what is wrong
     */
    static void checkStateDir(Path dir) throws UserException {
        if (!Files.isDirectory(dir)) {
            throw new UserException(ExitCodes.NOT_RUNNING, "events: --state-dir " + dir + ": "
                    + (Files.exists(dir) ? "not a directory" : "no such directory")
                    + "; pass the daemon's --state-dir (default /var/lib/jheartbeat)");
        }
    }

    /** Says on standard error why the journal files are read directly; true. */
    private boolean note(String why) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("hb: " + why + "; reading its journal files (" + stateDir.path().resolve(JournalFiles.DAEMON)
                + ") directly");
        err.flush();
        return true;
    }

    /**
     * The kinds named by {@code --kind} (wire names), none for every kind.
     *
     * @throws UserException ({@link ExitCodes#USAGE}) naming an unknown kind and the known ones
     */
    static Set<EventKind> kinds(List<String> names) throws UserException {
        Set<EventKind> out = EnumSet.noneOf(EventKind.class);
        for (String n : names) {
            if (n.isBlank()) {
                throw new UserException(ExitCodes.USAGE, "events: --kind " + String.join(",", names)
                        + ": an empty kind between commas; name kinds like node-dead,link-down");
            }
            out.add(EventKind.fromWire(n.strip()).orElseThrow(() -> new UserException(ExitCodes.USAGE,
                    "events: --kind " + n + ": no such event kind; known: " + String.join(", ",
                            java.util.Arrays.stream(EventKind.values()).map(EventKind::wire).toList()))));
        }
        return out;
    }

    /**
     * The instant {@code --since WHEN} names, in ms since the epoch.
     *
     * @param when  every form of {@link TimeSpec}, {@code hb report}'s: {@code 90s}, {@code 30min}, {@code 1h30m},
     *              {@code 1w} (ago), an ISO-8601 date, date-time (local in {@code zone}) or date-time with offset,
     *              {@code @EPOCH_MS} or {@code now}
     * @param clock now
     * @throws UserException ({@link ExitCodes#USAGE}) with the forms that are understood
     */
    static long sinceMillis(String when, Clock clock, ZoneId zone) throws UserException {
        try {
            return TimeSpec.parse(when, clock.instant(), zone).toEpochMilli();
        } catch (IllegalArgumentException e) {
            throw new UserException(ExitCodes.USAGE, "events: --since " + e.getMessage());
        }
    }
}
