package org.jheartbeat.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.cli.config.AlertSettings;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.JournalFiles;
import org.jheartbeat.core.state.StateDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's sinks with jheartbeat.yaml's alerts: an event reaches the journal and the alert script. */
class DaemonEventsAlertsTest {
    @TempDir
    Path dir;

    @Test
    void anEventGoesToTheJournalAndToTheAlertScript() throws Exception {
        Path out = dir.resolve("alert.out");
        Path script = dir.resolve("alert.sh");
        Files.writeString(script, "#!/bin/sh\necho \"$HB_EVENT_SEQ $HB_EVENT_KIND $HB_EVENT_SUBJECT $HB_EVENT_NODE\" >> " + out + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path state = Files.createDirectory(dir.resolve("state"));
        AlertSettings alerts = new AlertSettings(List.of(new AlertSettings.Rule(2, new AlertSettings.Script(script,
                ""), Set.of(EventKind.NODE_DEAD), Duration.ofSeconds(60), Optional.empty())));
        DaemonEvents events = DaemonEvents.open(new StateDirectory(state), "node2",
                Clock.fixed(Instant.parse("2026-12-06T03:12:04.518Z"), ZoneOffset.UTC), alerts);
        try {
            assertThat(events.alertStats()).isPresent();
            events.sink().record(ClusterEvent.of(1796526724518L, "node2", EventKind.LINK_DOWN, "node1/eth1", ""));
            events.sink().record(ClusterEvent.of(1796526724518L, "node2", EventKind.NODE_DEAD, "node1", "no beat"));
            await().atMost(Duration.ofSeconds(60)).until(() -> events.alertStats().get().sent() == 1);
        } finally {
            events.close();
        }
        assertThat(Files.readAllLines(out)).containsExactly("2 node-dead node1 node2"); // the number the journal gave it
        assertThat(JournalFiles.read(state, JournalFiles.DAEMON, 0, 10)).extracting(ClusterEvent::kind)
                .containsExactly(EventKind.LINK_DOWN, EventKind.NODE_DEAD);
        assertThat(JournalFiles.read(state, JournalFiles.DAEMON, 0, 10)).extracting(ClusterEvent::seq)
                .containsExactly(1L, 2L);
        DaemonEvents none = DaemonEvents.open(new StateDirectory(state), "node2", Clock.systemUTC());
        assertThat(none.alertStats()).isEmpty(); // no alerts: no dispatcher, no threads
        none.close();
    }
}
