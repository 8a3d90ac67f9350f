package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.HbRun.hb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.JournalFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb events}: asks the daemon with {@code events SINCE_MS MAX} and merges the directors' journals; reads
 * the files itself (saying so) when no daemon runs; {@code --kind} and {@code --json}; bad options are one line.
 */
class EventsCommandTest {
    @TempDir
    Path dir;

    final List<ControlRequest> asked = new ArrayList<>();

    static final ClusterEvent DEAD = new ClusterEvent(7, 1_796_526_724_518L, "node1", EventKind.NODE_DEAD, "node2",
            "no beat for 10000 ms", "", 10_000);
    static final ClusterEvent REAL = new ClusterEvent(1, 1_796_526_725_000L, "node1", EventKind.REAL_DOWN,
            "198.18.0.100:80/198.18.1.2:80", "connect refused", "", -1);
    static final ClusterEvent STARTED = new ClusterEvent(8, 1_796_526_726_000L, "node1", EventKind.GROUP_STARTED,
            "198.18.0.100/24/eth0", "", "", 1520);

    private void file(Path d, String name, ClusterEvent... events) throws IOException {
        Files.createDirectories(d);
        StringBuilder sb = new StringBuilder();
        for (ClusterEvent e : events) {
            sb.append(EventCodec.toJson(e)).append('\n');
        }
        Files.writeString(d.resolve(name), sb);
    }

    @Test
    void asksTheDaemonAndMergesTheDirectorsJournalByTime() throws Exception {
        file(dir.resolve("state"), JournalFiles.director("web"), REAL);
        HbRun r = StandInDaemon.against(dir, asked, q -> ControlResponse.ok(EventCodec.toJson(DEAD) + "\n"
                + EventCodec.toJson(STARTED) + "\n"), "events", "--json", "--since", "@1796526724000");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(asked).containsExactly(new ControlRequest.Events(1_796_526_724_000L, 5000));
        assertThat(r.out().lines().map(l -> EventCodec.parse(l).orElseThrow()).toList())
                .containsExactly(DEAD, REAL, STARTED);
        assertThat(r.err()).isEmpty();
    }

    @Test
    void withNoDaemonTheFilesAreReadAndStandardErrorSaysSo() throws Exception {
        Path state = dir.resolve("state");
        file(state, "events.jsonl.1", DEAD);
        file(state, "events.jsonl", STARTED);
        file(state, JournalFiles.director("web"), REAL);
        HbRun r = hb("events", "--state-dir=" + state, "--kind", "node-dead,group-started");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("no daemon answers on " + state).contains("reading its journal files");
        assertThat(r.out().lines().toList()).hasSize(2);
        assertThat(r.out()).contains(" node1 node-dead node2 (no beat for 10000 ms) took 10.000 s\n")
                .contains(" node1 group-started 198.18.0.100/24/eth0 took 1.520 s\n");
    }

    @Test
    void badOptionsAreOneLineUsageErrors() throws Exception {
        Path state = dir.resolve("state");
        Files.createDirectories(state);
        HbRun since = hb("events", "--state-dir=" + state, "--since", "yesterday");
        assertThat(since.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(since.err()).isEqualTo("hb: events: --since 'yesterday' is not a time (not a date and time); use"
                + " ISO-8601 (2026-12-06T03:12:00Z, or 2026-12-06 03:12 in local time), a time ago (2h, 30m, 1d2h, 1w)"
                + " or @MS (milliseconds since the epoch)\n");
        HbRun far = hb("events", "--state-dir=" + state, "--since", "99999999999d");
        assertThat(far.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(far.err()).startsWith("hb: events: --since '99999999999d' is not a time (more than 36525 days back)");
        HbRun empty = hb("events", "--state-dir=" + state, "--kind", "node-dead,,link-up");
        assertThat(empty.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(empty.err()).isEqualTo("hb: events: --kind node-dead,,link-up: an empty kind between commas; name"
                + " kinds like node-dead,link-down\n");
        HbRun kind = hb("events", "--state-dir=" + state, "--kind", "node-dead,node-exploded");
        assertThat(kind.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(kind.err()).startsWith("hb: events: --kind node-exploded: no such event kind; known: daemon-start,")
                .doesNotContain("Exception").hasLineCount(1);
    }

    @Test
    void aTimeInTheFutureIsSaid() throws Exception {
        Path state = dir.resolve("state");
        file(state, "events.jsonl", DEAD);
        HbRun r = hb("events", "--state-dir=" + state, "--since", "2999-01-01T00:00:00Z");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("hb: events: --since 2999-01-01T00:00:00Z is in the future; no event is that recent");
    }

    @Test
    void aTimeBefore1970AsksForEverything() throws Exception {
        HbRun r = StandInDaemon.against(dir, asked, q -> ControlResponse.ok(""), "events", "--since", "1960-01-01");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(asked).containsExactly(new ControlRequest.Events(0, 5000));
    }

    @Test
    void anOlderDaemonWithoutEventsMeansReadingTheFiles() throws Exception {
        file(dir.resolve("state"), "events.jsonl", DEAD);
        HbRun r = StandInDaemon.against(dir, asked, q -> ControlResponse.error("bad request: unknown request 'events'"
                + " (known: status, ...)"), "events", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("does not answer 'events' (an older version); reading its journal files");
        assertThat(r.out()).isEqualTo(EventCodec.toJson(DEAD) + "\n");
    }

    @Test
    void aDaemonErrorIsExitOne() throws Exception {
        HbRun r = StandInDaemon.against(dir, asked, q -> ControlResponse.error("no journal"), "events");
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).isEqualTo("hb: events: no journal\n");
    }

    @Test
    void aStateDirThatIsNotOneIsSaidNotReadAsNoEvents() throws Exception {
        Path missing = dir.resolve("no-such-dir");
        HbRun r = hb("events", "--state-dir=" + missing);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.NOT_RUNNING)
                .isEqualTo(hb("status", "--state-dir=" + missing).code());
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("hb: events: --state-dir " + missing + ": no such directory; pass the daemon's"
                + " --state-dir (default /var/lib/jheartbeat)\n");
        Path file = dir.resolve("passwd");
        Files.writeString(file, "root:x:0:0::/root:/bin/sh\n");
        HbRun f = hb("events", "--state-dir=" + file);
        assertThat(f.code()).as(f.err()).isEqualTo(ExitCodes.NOT_RUNNING);
        assertThat(f.err()).isEqualTo("hb: events: --state-dir " + file + ": not a directory; pass the daemon's"
                + " --state-dir (default /var/lib/jheartbeat)\n");
    }

    @Test
    void aNegativeEpochOrAFarAgoIsAUsageError() throws Exception {
        Path state = Files.createDirectories(dir.resolve("state"));
        HbRun neg = hb("events", "--state-dir=" + state, "--since", "@-1");
        assertThat(neg.code()).as(neg.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(neg.err()).startsWith("hb: events: --since '@-1' is not a time (@ takes milliseconds since"
                + " 1970-01-01T00:00:00Z: 1 to 16 digits, no sign)").hasLineCount(1);
        for (String far : List.of("9999999999999h", "100000000w")) {
            HbRun r = hb("events", "--state-dir=" + state, "--since", far);
            assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).startsWith("hb: events: --since '" + far + "' is not a time (more than 36525 days"
                    + " back)");
        }
    }
}
