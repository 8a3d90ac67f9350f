package org.jheartbeat.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.JournalFiles;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.takeover.ResourceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's events over a real control socket: an operator's request is recorded with the caller the kernel
 * names, and {@code events} answers with the journal's lines.
 */
class DaemonEventsTest {
    @TempDir
    Path dir;

    final Clock clock = Clock.fixed(Instant.parse("2026-12-06T03:12:04.518Z"), ZoneOffset.UTC);

    @Test
    void operatorRequestsAreRecordedWithWhoAskedAndEventsAnswersTheJournal() throws Exception {
        StateDirectory state = new StateDirectory(dir);
        DaemonEvents events = DaemonEvents.open(state, "node1", clock);
        events.record(EventKind.DAEMON_START, "node1", "generation 7");
        try (ControlServer s = new ControlServer(state.controlSocket(), events.answering(r ->
                r instanceof ControlRequest.Handover ? ControlResponse.ok("standby all: done\nResource groups:\n")
                        : ControlResponse.refused("no resource group web in haresources")))) {
            s.start();
            ControlClient.request(state.controlSocket(), new ControlRequest.Handover(
                    ControlRequest.HandoverKind.STANDBY, ResourceSet.ALL, 30));
            ControlClient.request(state.controlSocket(), new ControlRequest.Cleanup(Optional.of("web")));
            ControlClient.request(state.controlSocket(), new ControlRequest.Status(false));
            // the writer is a thread of its own: wait (bounded) for the three events to be on disk
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (JournalFiles.read(dir, JournalFiles.DAEMON, 0, 10).size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            ControlResponse answer = ControlClient.request(state.controlSocket(), new ControlRequest.Events(0, 10));
            List<ClusterEvent> got = answer.body().lines().map(l -> EventCodec.parse(l).orElseThrow()).toList();
            assertThat(got).extracting(ClusterEvent::seq).containsExactly(1L, 2L, 3L);
            assertThat(got).extracting(ClusterEvent::kind)
                    .containsExactly(EventKind.DAEMON_START, EventKind.STANDBY, EventKind.CLEANUP);
            ClusterEvent standby = got.get(1);
            assertThat(standby.subject()).isEqualTo("all");
            assertThat(standby.cause()).isEqualTo("standby all: done");
            String me = ProcessHandle.current().info().user().orElse("root");
            // the client is this process, which the socket table does not name; a separate hb adds its pid
            assertThat(standby.by()).startsWith("user " + me + " (group ");
            assertThat(standby.node()).isEqualTo("node1");
            assertThat(standby.durationMillis()).isZero();
            assertThat(got.get(2).cause()).isEqualTo("refused: no resource group web in haresources");
            assertThat(got.get(2).subject()).isEqualTo("web");
            // a newer "since" than every event: none
            assertThat(ControlClient.request(state.controlSocket(), new ControlRequest.Events(clock.millis() + 1, 10))
                    .body()).isEmpty();
        } finally {
            events.close();
        }
    }
}
