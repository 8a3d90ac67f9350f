package org.jheartbeat.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.junit.jupiter.api.Test;

/** Two nodes' journals merged into one timeline, and the failovers and hand-overs found in it. */
class ReportSummaryTest {
    static final long T = Instant.parse("2026-12-06T03:12:00Z").toEpochMilli();
    static final ZoneId UTC = ZoneId.of("UTC");

    static ClusterEvent e(long seq, long ms, String node, EventKind kind, String subject, String cause, long duration) {
        return new ClusterEvent(seq, T + ms, node, kind, subject, cause, "", duration);
    }

    // node1 loses power at about T; node2 declares it dead after deadtime 3 s, fences it, starts the group;
    // node1 comes back and gets its group back (auto_failback)
    static final List<ClusterEvent> NODE1 = List.of(
            e(10, -60_000, "node1", EventKind.GROUP_STARTED, "198.18.0.100/24/eth0 labweb", "", 400),
            e(11, 40_000, "node1", EventKind.DAEMON_START, "node1", "jheartbeat 0.1.0", -1),
            e(12, 41_000, "node1", EventKind.NODE_ALIVE, "node2", "", -1),
            e(13, 42_100, "node1", EventKind.GROUP_STARTING, "198.18.0.100/24/eth0 labweb", "failback", -1),
            e(14, 42_600, "node1", EventKind.GROUP_STARTED, "198.18.0.100/24/eth0 labweb", "", 500));
    static final List<ClusterEvent> NODE2 = List.of(
            e(20, 3_000, "node2", EventKind.NODE_DEAD, "node1", "no beat for 3000 ms", 3000),
            e(21, 3_001, "node2", EventKind.LINK_DOWN, "node1/eth1", "", -1),
            e(22, 3_010, "node2", EventKind.FENCE_ASKED, "node1", "node1 is dead", -1),
            e(23, 3_900, "node2", EventKind.FENCE_CONFIRMED, "node1", "", 890),
            e(24, 3_905, "node2", EventKind.GROUP_STARTING, "198.18.0.100/24/eth0 labweb", "node1 is dead", -1),
            e(25, 4_700, "node2", EventKind.GROUP_STARTED, "198.18.0.100/24/eth0 labweb", "", 795),
            e(26, 41_000, "node2", EventKind.NODE_ALIVE, "node1", "", -1),
            new ClusterEvent(27, T + 41_500, "node2", EventKind.FAILBACK, "198.18.0.100/24/eth0 labweb", "auto_failback on",
                    "", -1),
            e(28, 41_600, "node2", EventKind.GROUP_STOPPING, "198.18.0.100/24/eth0 labweb", "failback", -1),
            e(29, 42_000, "node2", EventKind.GROUP_STOPPED, "198.18.0.100/24/eth0 labweb", "", 400));

    @Test
    void theTimelineInterleavesBothNodesByTime() {
        List<ClusterEvent> merged = ReportSummary.merge(List.of(NODE1, NODE2));
        assertThat(merged).hasSize(15);
        assertThat(merged.stream().map(x -> x.node() + ":" + x.seq()).toList()).containsExactly("node1:10", "node2:20",
                "node2:21", "node2:22", "node2:23", "node2:24", "node2:25", "node1:11", "node1:12", "node2:26",
                "node2:27", "node2:28", "node2:29", "node1:13", "node1:14");
        // a tie in time: by node, then by the node's own order
        List<ClusterEvent> tie = ReportSummary.merge(List.of(List.of(e(5, 0, "node2", EventKind.LINK_UP, "a", "", -1)),
                List.of(e(9, 0, "node1", EventKind.LINK_UP, "b", "", -1), e(8, 0, "node1", EventKind.LINK_UP, "c", "", -1))));
        assertThat(tie.stream().map(ClusterEvent::subject).toList()).containsExactly("c", "b", "a");
    }

    @Test
    void aFailoverAndAFailbackWithTheirDurations() {
        List<ClusterEvent> merged = ReportSummary.merge(List.of(NODE1, NODE2));
        List<ReportSummary.Incident> incidents = ReportSummary.incidents(merged);
        assertThat(incidents).hasSize(2);
        assertThat(incidents.get(0).start().kind()).isEqualTo(EventKind.NODE_DEAD);
        assertThat(incidents.get(0).lastStarted().orElseThrow().seq()).isEqualTo(25);
        assertThat(incidents.get(1).start().kind()).isEqualTo(EventKind.FAILBACK);
        assertThat(incidents.get(1).lastStarted().orElseThrow().node()).isEqualTo("node1");

        String s = ReportSummary.render(new TimeSpec.Window(Instant.ofEpochMilli(T - 3_600_000), Instant.ofEpochMilli(T
                + 60_000)), "node2", List.of(new ReportSummary.Part("node2", "on this node", Optional.empty(),
                Optional.empty(), List.of()), new ReportSummary.Part("node1", "over ssh 198.18.1.1", Optional.empty(),
                Optional.of(new ReportSummary.ClockOffset(-12, 40)), List.of("no journald here: no journalctl excerpt"))), merged, UTC);
        assertThat(s).startsWith("hb report: 2026-12-06 02:12:00.000 to 2026-12-06 03:13:00.000 (UTC)\n"
                + "collected by node2\n\nNodes\n"
                + "  node2: collected on this node\n"
                + "  node1: collected over ssh 198.18.1.1; its clock is -12 ms from node2's (+/- 40 ms)\n"
                + "    no journald here: no journalctl excerpt\n\n"
                + "What happened\n"
                + "  2026-12-06 03:12:03.000  failover: node2 declared node1 dead (silent for 3000 ms)\n"
                + "      node2 asked to fence node1 +10 ms\n"
                + "      node2 fenced node1 +900 ms (took 890 ms)\n"
                + "      node2 started 198.18.0.100/24/eth0 labweb +1700 ms (took 795 ms)\n"
                + "      services back on node2 after 1700 ms (4700 ms after node1's last beat)\n"
                + "  2026-12-06 03:12:41.500  failback on node2 of 198.18.0.100/24/eth0 labweb\n"
                + "      node2 stopped 198.18.0.100/24/eth0 labweb +500 ms (took 400 ms)\n"
                + "      node1 started 198.18.0.100/24/eth0 labweb +1100 ms (took 500 ms)\n"
                + "      services back on node1 after 1100 ms\n\n"
                + "Events per node\n"
                + "  node1: daemon-start=1 group-started=2 group-starting=1 node-alive=1\n"
                + "  node2: failback=1 fence-asked=1 fence-confirmed=1 group-started=1 group-starting=1 group-stopped=1"
                + " group-stopping=1 link-down=1 node-alive=1 node-dead=1\n\n"
                + "Timeline (both nodes, 15 events)\n"
                + "  2026-12-06 03:11:00.000  node1    group-started      198.18.0.100/24/eth0 labweb  [400 ms]\n"
                + "  2026-12-06 03:12:03.000  node2    node-dead          node1  (no beat for 3000 ms)  [3000 ms]\n");
        assertThat(s).contains("  2026-12-06 03:12:42.600  node1    group-started      198.18.0.100/24/eth0 labweb"
                + "  [500 ms]\n");
    }

    @Test
    void aGroupSeenServingAfterTheFailoverIsSaidWithItsTime() {
        List<ClusterEvent> node2 = new java.util.ArrayList<>(NODE2.subList(0, 6));
        node2.add(e(30, 6_700, "node2", EventKind.GROUP_SERVED, "198.18.0.100/24/eth0 labweb", "labweb running", 2_000));
        String s = ReportSummary.render(new TimeSpec.Window(Instant.ofEpochMilli(T), Instant.ofEpochMilli(T + 10_000)),
                "node2", List.of(new ReportSummary.Part("node2", "on this node", Optional.empty(), Optional.empty(),
                        List.of())), ReportSummary.merge(List.of(node2)), UTC);
        assertThat(s).contains("      node2 started 198.18.0.100/24/eth0 labweb +1700 ms (took 795 ms)\n"
                + "      node2 serves 198.18.0.100/24/eth0 labweb (first monitor passed) +3700 ms (2000 ms after its start)\n"
                + "      services back on node2 after 1700 ms (4700 ms after node1's last beat)\n"
                + "      served after 3700 ms (198.18.0.100/24/eth0 labweb's first monitor passed on node2)\n");
        // without monitoring there is no served line
        assertThat(ReportSummary.render(new TimeSpec.Window(Instant.ofEpochMilli(T), Instant.ofEpochMilli(T + 10_000)),
                "node2", List.of(), ReportSummary.merge(List.of(NODE2.subList(0, 6))), UTC)).doesNotContain("served after");
    }

    @Test
    void anUnreachablePeerAndAQuietWindowAreSaid() {
        String s = ReportSummary.render(new TimeSpec.Window(Instant.ofEpochMilli(T), Instant.ofEpochMilli(T + 1000)),
                "node1", List.of(new ReportSummary.Part("node1", "on this node", Optional.empty(), Optional.empty(),
                        List.of()), new ReportSummary.Part("peer", "over ssh 198.18.1.99", Optional.of("cannot reach"
                        + " 198.18.1.99 over ssh (ssh: connect to host 198.18.1.99 port 22: No route to host)"),
                        Optional.empty(), List.of())), List.of(), UTC);
        assertThat(s).contains("  peer: NOT COLLECTED (over ssh 198.18.1.99): cannot reach 198.18.1.99 over ssh (ssh:"
                + " connect to host 198.18.1.99 port 22: No route to host)\n")
                .contains("What happened\n  no failover, join, standby, takeover or failback in the window\n")
                .contains("Events per node\n  none in the window\n").endsWith("Timeline (both nodes, 0 events)\n");
    }

    @Test
    void aLabFailoverAndItsAutoFailbackAsTheJournalsRecordThem() {
        // the two journals of ReportIT's drill (deadtime 3 s, auto_failback on), times from T
        String g = "198.18.0.100/24/eth0";
        List<ClusterEvent> n1 = List.of(e(1, 0, "node1", EventKind.DAEMON_START, "node1", "generation 1", -1),
                e(2, 3_159, "node1", EventKind.LINK_UP, "node2/eth1", "", -1),
                e(3, 3_155, "node1", EventKind.NODE_ALIVE, "node2", "status up", -1),
                e(4, 3_183, "node1", EventKind.GROUP_STARTING, g, "local", -1),
                e(5, 3_332, "node1", EventKind.GROUP_STARTED, g, "", 148),
                e(6, 8_709, "node1", EventKind.DAEMON_START, "node1", "generation 2", -1),
                e(7, 9_144, "node1", EventKind.NODE_ALIVE, "node2", "status active", -1),
                e(8, 9_263, "node1", EventKind.GROUP_STARTING, g, "standby: taking over from node2", -1),
                e(9, 9_395, "node1", EventKind.GROUP_STARTED, g, "", 131));
        List<ClusterEvent> n2 = List.of(e(1, 2_490, "node2", EventKind.DAEMON_START, "node2", "generation 1", -1),
                e(2, 3_138, "node2", EventKind.NODE_ALIVE, "node1", "status up", -1),
                e(3, 6_515, "node2", EventKind.LINK_DOWN, "node1/eth1", "no beats on this link", -1),
                e(4, 6_515, "node2", EventKind.NODE_DEAD, "node1", "no beat for 3000 ms", 3000),
                e(5, 6_540, "node2", EventKind.GROUP_STARTING, g, "takeover: node1 is down", -1),
                e(6, 6_671, "node2", EventKind.GROUP_STARTED, g, "", 130),
                e(7, 9_165, "node2", EventKind.NODE_ALIVE, "node1", "status active", -1),
                e(8, 9_222, "node2", EventKind.GROUP_STOPPING, g, "standby: handing over to node1", -1),
                e(9, 9_256, "node2", EventKind.GROUP_STOPPED, g, "", 34));
        List<ClusterEvent> merged = ReportSummary.merge(List.of(n1, n2));
        String s = ReportSummary.render(new TimeSpec.Window(Instant.ofEpochMilli(T), Instant.ofEpochMilli(T + 10_000)),
                "node2", List.of(new ReportSummary.Part("node2", "on this node", Optional.empty(), Optional.empty(),
                        List.of())), merged, UTC);
        assertThat(s).contains("What happened\n"
                + "  2026-12-06 03:12:03.155  join: node1 hears node2 (status up)\n"
                + "      node1 started 198.18.0.100/24/eth0 +177 ms (took 148 ms)\n"
                + "      services back on node1 after 177 ms\n"
                + "  2026-12-06 03:12:06.515  failover: node2 declared node1 dead (silent for 3000 ms)\n"
                + "      node2 started 198.18.0.100/24/eth0 +156 ms (took 130 ms)\n"
                + "      services back on node2 after 156 ms (3156 ms after node1's last beat)\n"
                + "  2026-12-06 03:12:09.165  join: node2 hears node1 (status active)\n"
                + "      node2 stopped 198.18.0.100/24/eth0 +91 ms (took 34 ms)\n"
                + "      node1 started 198.18.0.100/24/eth0 +230 ms (took 131 ms)\n"
                + "      services back on node1 after 230 ms\n\n");
    }
}
