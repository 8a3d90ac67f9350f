package org.jheartbeat.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.testkit.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventJournalTest {
    @TempDir
    Path dir;
    final FakeClock clock = new FakeClock();

    private EventJournal open(long maxBytes) throws IOException {
        return EventJournal.open(dir, JournalFiles.DAEMON, maxBytes, 64, clock);
    }

    private static ClusterEvent event(long ms, EventKind kind, String subject) {
        return ClusterEvent.of(ms, "node1", kind, subject, "why");
    }

    /** Records {@code n} events at ms 1000, 1001, ... and closes (which writes them all). */
    private void write(long maxBytes, int n, long firstMs) throws IOException {
        try (EventJournal j = open(maxBytes)) {
            for (int i = 0; i < n; i++) {
                j.record(event(firstMs + i, EventKind.LINK_DOWN, "node2/eth" + i));
            }
        }
    }

    @Test
    void eventsAreNumberedOneLineEachAndTheFileIs0640() throws IOException {
        write(EventJournal.DEFAULT_MAX_BYTES, 3, 1000);
        Path f = dir.resolve("events.jsonl");
        List<String> lines = Files.readAllLines(f);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("{\"seq\":1,").contains("\"subject\":\"node2/eth0\"");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-r-----");
        assertThat(JournalFiles.read(dir, JournalFiles.DAEMON, Long.MIN_VALUE, 10)).extracting(ClusterEvent::seq)
                .containsExactly(1L, 2L, 3L);
    }

    @Test
    void numberingGoesOnAfterARestart() throws IOException {
        write(EventJournal.DEFAULT_MAX_BYTES, 2, 1000);
        write(EventJournal.DEFAULT_MAX_BYTES, 2, 2000);
        assertThat(JournalFiles.read(dir, JournalFiles.DAEMON, Long.MIN_VALUE, 10))
                .extracting(ClusterEvent::seq, ClusterEvent::wallMillis)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, 1000L), org.assertj.core.groups.Tuple.tuple(2L, 1001L),
                        org.assertj.core.groups.Tuple.tuple(3L, 2000L), org.assertj.core.groups.Tuple.tuple(4L, 2001L));
    }

    @Test
    void aTornLastLineIsSkippedOnReadAndCutAtOpen() throws IOException {
        write(EventJournal.DEFAULT_MAX_BYTES, 2, 1000);
        Path f = dir.resolve("events.jsonl");
        // a crash mid-write: half a line, no newline
        Files.writeString(f, "{\"seq\":3,\"time\":\"1970-01-01T00:00:01.002Z\",\"ms\":10", StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("events.jsonl.1"), "not json\n{\"seq\":\n");
        assertThat(JournalFiles.read(dir, JournalFiles.DAEMON, Long.MIN_VALUE, 10)).hasSize(2);
        write(EventJournal.DEFAULT_MAX_BYTES, 1, 3000);
        List<String> lines = Files.readAllLines(f);
        assertThat(lines).hasSize(3);
        assertThat(EventCodec.parse(lines.get(2))).hasValueSatisfying(e -> {
            assertThat(e.seq()).isEqualTo(3);
            assertThat(e.wallMillis()).isEqualTo(3000);
        });
    }

    @Test
    void theJournalRotatesIntoTwoFilesAndKeepsTheNewest() throws IOException {
        int lineBytes = (EventCodec.toJson(event(1000, EventKind.LINK_DOWN, "node2/eth0").numbered(100)) + "\n").length();
        long max = 10L * lineBytes;
        // one at a time, so each batch is one event and the bound is met line by line
        try (EventJournal j = open(max)) {
            for (int i = 0; i < 35; i++) {
                j.record(event(1000 + i, EventKind.LINK_DOWN, "node2/eth0"));
                waitWritten(j, i + 1);
            }
        }
        Path cur = dir.resolve("events.jsonl");
        Path prev = dir.resolve("events.jsonl.1");
        assertThat(Files.size(cur)).isLessThanOrEqualTo(max);
        assertThat(Files.size(prev)).isLessThanOrEqualTo(max);
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("events.jsonl",
                "events.jsonl.1");
        List<ClusterEvent> all = JournalFiles.read(dir, JournalFiles.DAEMON, Long.MIN_VALUE, 100);
        // 35 written, about 10 per file: the oldest are gone, the newest are all there, in order
        long first = all.get(0).seq();
        assertThat(first).isBetween(15L, 26L);
        assertThat(all).extracting(ClusterEvent::seq).isEqualTo(seqs(first, 35));
        assertThat(JournalFiles.events(prev).get(JournalFiles.events(prev).size() - 1).seq() + 1)
                .isEqualTo(JournalFiles.events(cur).get(0).seq());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cur))).isEqualTo("rw-r-----");
    }

    @Test
    void readGivesTheNewestMaxSinceATime() throws IOException {
        write(EventJournal.DEFAULT_MAX_BYTES, 10, 1000);
        assertThat(JournalFiles.read(dir, JournalFiles.DAEMON, 1005, 100)).extracting(ClusterEvent::wallMillis)
                .containsExactly(1005L, 1006L, 1007L, 1008L, 1009L);
        assertThat(JournalFiles.read(dir, JournalFiles.DAEMON, 1005, 2)).extracting(ClusterEvent::wallMillis)
                .containsExactly(1008L, 1009L);
        assertThat(JournalFiles.read(dir, "missing.jsonl", 0, 2)).isEmpty();
        try (EventJournal j = open(EventJournal.DEFAULT_MAX_BYTES)) {
            assertThat(j.read(1009, 5)).extracting(ClusterEvent::seq).containsExactly(10L);
        }
    }

    @Test
    void aFullQueueDropsAndCountsWithoutWaiting() throws IOException {
        EventJournal j = EventJournal.unstarted(dir, JournalFiles.DAEMON, EventJournal.DEFAULT_MAX_BYTES, 4, clock);
        for (int i = 0; i < 7; i++) {
            j.record(event(1000 + i, EventKind.LATE_BEAT, "node2"));
        }
        assertThat(j.dropped()).isEqualTo(3);
        j.startWriter();
        j.close();
        assertThat(j.written()).isEqualTo(4);
        j.record(event(2000, EventKind.LATE_BEAT, "node2"));
        assertThat(j.dropped()).isEqualTo(4);
        assertThat(JournalFiles.read(dir, JournalFiles.DAEMON, Long.MIN_VALUE, 100)).extracting(ClusterEvent::wallMillis)
                .containsExactly(1000L, 1001L, 1002L, 1003L);
    }

    @Test
    void aThrowingSinkIsCountedAndTheOthersStillGetTheEvent() {
        List<ClusterEvent> got = new ArrayList<>();
        EventSinks sinks = new EventSinks(List.of("broken", "list"), List.of(e -> {
            throw new IllegalStateException("boom");
        }, got::add));
        sinks.record(event(1, EventKind.RELOAD, ""));
        sinks.record(event(2, EventKind.RELOAD, ""));
        assertThat(got).hasSize(2);
        assertThat(sinks.failures("broken")).isEqualTo(2);
        assertThat(sinks.failures("list")).isZero();
    }

    private static void waitWritten(EventJournal j, long n) {
        // a bound that only catches a hang; the writer is a thread of its own
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (j.written() < n) {
            assertThat(System.nanoTime()).as("writer wrote %d events", n).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static List<Long> seqs(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            out.add(i);
        }
        return out;
    }
}
