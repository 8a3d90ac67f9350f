package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.EventKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The event journal in the lab: an operator's {@code hb standby} is recorded with the caller (uid and pid of
 * the hb process); after a fenced failover the survivor's {@code hb events --json} holds node-dead,
 * fence-asked, fence-confirmed, group-starting and group-started in that order with durations within the
 * lab's bounds; with the daemon stopped {@code hb events} reads the files and says so; a restart keeps the
 * journal and numbers on. Bounds only catch hangs.
 */
@Tag("root")
class JournalIT {

    static List<ClusterEvent> events(Lab lab, String node) throws Exception {
        Lab.Result r = OperatorCommandsIT.hbExactly(lab, node, "events", "--json", "--state-dir",
                lab.runDir().resolve(node).resolve("state").toString());
        assertThat(r.code()).as(r.output()).isZero();
        return r.output().lines().map(EventCodec::parse).flatMap(Optional::stream).toList();
    }

    static int indexOf(List<ClusterEvent> events, int from, EventKind kind, String subjectPart) {
        for (int i = from; i < events.size(); i++) {
            if (events.get(i).kind() == kind && events.get(i).subject().contains(subjectPart)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aFencedFailoverAndAStandbyAreInTheSurvivorsJournalAndARestartKeepsIt() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_STONITH", "apcsmart"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 40)).isNotNegative();
            Lab.Result standby = OperatorCommandsIT.wrapper(lab, "node1", "hb", "standby", "all");
            assertThat(standby.code()).as(standby.output()).isZero();
            assertThat(FailoverIT.waitFor(lab, "node2", Figures.HANG_MS)).isNotNegative();
            List<ClusterEvent> one = events(lab, "node1");
            ClusterEvent asked = one.get(indexOf(one, 0, EventKind.STANDBY, "all"));
            assertThat(asked.by()).as("%s", asked).startsWith("user root (group root), uid 0, pid ");
            assertThat(asked.node()).isEqualTo("node1");

            // node2 serves; it freezes, node1 fences it through its UPS and takes the group back
            long t0 = System.nanoTime();
            lab.lab("freeze", "node2");
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).until(() -> "node1".equals(lab.http()));
            long servedMs = (System.nanoTime() - t0) / 1_000_000;
            List<ClusterEvent> after = List.of();
            for (long end = System.nanoTime() + 30_000_000_000L; System.nanoTime() < end; Thread.sleep(200)) {
                after = events(lab, "node1");
                if (indexOf(after, 0, EventKind.GROUP_STARTED, FailoverIT.VIP) > indexOf(after, 0,
                        EventKind.NODE_DEAD, "node2")) {
                    break;
                }
            }
            int dead = indexOf(after, 0, EventKind.NODE_DEAD, "node2");
            int fenceAsked = indexOf(after, dead, EventKind.FENCE_ASKED, "node2");
            int fenced = indexOf(after, fenceAsked, EventKind.FENCE_CONFIRMED, "node2");
            int starting = indexOf(after, fenced, EventKind.GROUP_STARTING, FailoverIT.VIP);
            int started = indexOf(after, starting, EventKind.GROUP_STARTED, FailoverIT.VIP);
            assertThat(List.of(dead, fenceAsked, fenced, starting, started)).as("%s", after).doesNotContain(-1);
            ClusterEvent d = after.get(dead);
            // lab deadtime 3 s; silent at least that, and less than the whole time to serve
            assertThat(d.durationMillis()).as("%s", d).isBetween(3_000L, servedMs);
            assertThat(after.get(fenced).durationMillis()).as("%s", after.get(fenced)).isBetween(0L, servedMs);
            assertThat(after.get(started).durationMillis()).as("%s", after.get(started)).isBetween(0L, servedMs);
            assertThat(after.get(starting).cause()).isNotEmpty();
            Figures.print("journal_fence_ms", after.get(fenced).durationMillis(), "ms",
                    "fence-confirmed's duration (asked to confirmed) in node1's journal");
            Figures.print("journal_group_start_ms", after.get(started).durationMillis(), "ms",
                    "group-started's duration in node1's journal");
            for (int i = 1; i < after.size(); i++) {
                assertThat(after.get(i).seq()).isEqualTo(after.get(i - 1).seq() + 1);
            }

            // stopped: hb events reads the files and says so; started again: the journal goes on
            long lastSeq = after.get(after.size() - 1).seq();
            lab.lab("stop", "node1");
            Lab.Result offline = OperatorCommandsIT.hbExactly(lab, "node1", "events", "--state-dir",
                    lab.runDir().resolve("node1").resolve("state").toString(), "--kind", "daemon-stop,node-dead");
            assertThat(offline.code()).as(offline.output()).isZero();
            assertThat(offline.output()).contains("no daemon answers on").contains(" node1 node-dead node2 (")
                    .contains(" node1 daemon-stop node1");
            lab.lab("start", "node1");
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).until(() -> {
                List<ClusterEvent> all = events(lab, "node1");
                return all.stream().anyMatch(e -> e.kind() == EventKind.DAEMON_START && e.seq() > lastSeq);
            });
            List<ClusterEvent> kept = events(lab, "node1");
            assertThat(kept.get(0).seq()).isEqualTo(1);
            assertThat(kept).extracting(ClusterEvent::kind).contains(EventKind.STANDBY, EventKind.FENCE_CONFIRMED,
                    EventKind.DAEMON_STOP);
            lab.lab("thaw", "node2");
        }
    }
}
