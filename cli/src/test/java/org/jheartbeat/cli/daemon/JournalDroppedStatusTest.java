package org.jheartbeat.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.core.loop.GroupExecutor;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.sync.cluster.SyncRuntime;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Events the journal dropped are in hb status (text and JSON), from a real journal and a real cluster loop. */
class JournalDroppedStatusTest {
    @TempDir
    Path dir;

    @Test
    void statusShowsTheJournalsDroppedEvents() throws Exception {
        ClusterConfig config = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 0, true).config();
        NodeName me = TwoNodeHarness.N1;
        // the production scheduler (its own thread): the handler waits for the loop's answers as in the daemon
        org.jheartbeat.core.loop.LoopScheduler s = org.jheartbeat.core.loop.LoopScheduler.thread();
        java.time.Clock wall = java.time.Clock.systemUTC();
        OutboundStamper st = new OutboundStamper(me, new byte[16], 1, new MessageAuthenticator(config.authKeys()),
                () -> "0.00 0.00 0.00 1/1 1");
        ClusterLoop loop = new ClusterLoop(config, new NodeEngine(config, me, st, 3, s.nanoTime()), List.of(),
                new Idle(), s, wall);
        DaemonEvents events = DaemonEvents.open(new StateDirectory(dir), "node1", wall);
        events.close();
        // a closed journal (as at shutdown) drops what it is handed, as a full queue does, and counts it
        events.record(EventKind.LINK_DOWN, "node2/eth1", "no beats on this link");
        events.record(EventKind.LINK_UP, "node2/eth1", "");
        assertThat(events.dropped()).isEqualTo(2);
        loop.start();
        try {
            ControlHandler h = new ControlHandler(loop, config, new SyncRuntime(SyncConfig.empty(), "node1",
                    Optional::empty, wall), () -> 0, () -> new ControlServer.Stats(0, 0, 0, 0, 0), null, null)
                    .journalDropped(events::dropped);
            ControlResponse text = h.apply(new ControlRequest.Status(false));
            assertThat(text.body()).contains("Log lines dropped: 0\nJournal events dropped: 2\nControl clients: ");
            ControlResponse json = h.apply(new ControlRequest.Status(true));
            assertThat(json.body()).contains("\"log_dropped\":0,\"journal_dropped\":2,");
            // and in the metrics: the daemon's endpoint reads the same count
            assertThat(new DaemonMetricsSources(loop, null, null, null, Optional::empty, events::dropped)
                    .journalDropped()).isEqualTo(2);
        } finally {
            loop.close();
        }
    }

    /** Runs nothing: no group is started in this test. */
    private static final class Idle implements GroupExecutor {
        @Override
        public CompletableFuture<StartResult> start(int group, GroupOpReason reason) {
            return new CompletableFuture<>();
        }

        @Override
        public CompletableFuture<Boolean> stop(int group, GroupOpReason reason) {
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public void peerLost(NodeName peer, String how) {
        }

        @Override
        public void close() {
        }
    }
}
