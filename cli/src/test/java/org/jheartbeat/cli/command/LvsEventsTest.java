package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.JournalFiles;
import org.jheartbeat.director.runtime.DirectorAction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The director's journal: real servers down and up in lvs-CONFIGNAME.events.jsonl, which hb events merges. */
class LvsEventsTest {
    @TempDir
    Path dir;

    @Test
    void realChangesAreRecordedInTheDirectorsOwnFile() throws Exception {
        Clock clock = Clock.fixed(Instant.parse("2026-12-06T03:12:05Z"), ZoneOffset.UTC);
        try (LvsEvents e = LvsEvents.open(dir, Path.of("/etc/ha.d/ldirectord.cf"), "node1", clock)) {
            e.listener().accept(new DirectorAction.RealChanged("198.18.0.100:80", "198.18.0.22:80", true,
                    "Deleted real server: 198.18.0.22:80 (198.18.0.100:80)"));
            e.listener().accept(new DirectorAction.Log(DirectorAction.Level.INFO, "not an event"));
            e.listener().accept(new DirectorAction.RealChanged("198.18.0.100:80", "198.18.0.22:80", false, "Added"));
        }
        assertThat(JournalFiles.journals(dir)).containsExactly("events.jsonl", "lvs-ldirectord.cf.events.jsonl");
        assertThat(JournalFiles.read(dir, "lvs-ldirectord.cf.events.jsonl", 0, 10))
                .extracting(ClusterEvent::kind, ClusterEvent::subject, ClusterEvent::node)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(EventKind.REAL_DOWN, "198.18.0.100:80/198.18.0.22:80",
                        "node1"), org.assertj.core.groups.Tuple.tuple(EventKind.REAL_UP, "198.18.0.100:80/198.18.0.22:80",
                        "node1"));
    }

    @Test
    void noStateDirectoryMeansNoJournalAndNoFailure() {
        try (LvsEvents e = LvsEvents.open(dir.resolve("missing"), Path.of("ldirectord.cf"), "node1", Clock.systemUTC())) {
            e.listener().accept(new DirectorAction.RealChanged("a", "b", true, "m"));
        }
        assertThat(dir.resolve("missing")).doesNotExist();
    }
}
