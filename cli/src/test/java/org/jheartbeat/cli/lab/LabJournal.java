package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.EventKind;

/** A lab node's event journal, as {@code hb events --json} prints it (from the daemon, or the files when it is down). */
final class LabJournal {
    private LabJournal() {
    }

    /** Every event in {@code node}'s journal, oldest first; fails the test when {@code hb events} does. */
    static List<ClusterEvent> events(Lab lab, String node) throws Exception {
        Lab.Result r = OperatorCommandsIT.hbExactly(lab, node, "events", "--json", "--state-dir",
                lab.runDir().resolve(node).resolve("state").toString());
        assertThat(r.code()).as(r.output()).isZero();
        return r.output().lines().map(EventCodec::parse).flatMap(Optional::stream).toList();
    }

    /**
     * Waits until {@code node}'s journal holds {@code count} events of {@code kind} whose subject contains the text.
     * The VIP answers a client before the group's last resource has started and the journal line is written, so a
     * test that cuts a node's power as soon as it serves must wait for this first.
     */
    static void await(Lab lab, String node, EventKind kind, String subjectPart, int count) throws Exception {
        lab.waitUntil(() -> events(lab, node).stream()
                .filter(e -> e.kind() == kind && e.subject().contains(subjectPart)).count() >= count,
                Figures.HANG_MS, node + "'s journal to hold " + count + " " + kind + " " + subjectPart);
    }

    /** The index of the first event at or after {@code from} of {@code kind} whose subject contains the text; -1 if none. */
    static int indexOf(List<ClusterEvent> events, int from, EventKind kind, String subjectPart) {
        for (int i = Math.max(0, from); i < events.size(); i++) {
            if (events.get(i).kind() == kind && events.get(i).subject().contains(subjectPart)) {
                return i;
            }
        }
        return -1;
    }
}
