package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A node stopped (SIGSTOP) for about its deadtime, then resumed: its overdue tick and the peer's beats
 * that waited in its socket buffer come at the same instant (docs/design/failure-detection.md, "Pauses
 * of this process"; docs/design/takeover.md, "A node resumes after a freeze"). The lab saw the resumed
 * node declare its live peer dead on that tick, take the peer's group and keep it while the peer, which
 * had declared nothing, never noticed. The sweep: freezes from deadtime - 500 ms to deadtime + 3 s in
 * 100 ms steps, at phases against both nodes' beats that change with each length, both orders of tick
 * and frames, with and without STONITH, active/passive and active/active, either node frozen.
 */
class FrozenNodeScenarioTest {
    private static final String G1 = "198.18.0.100/24/eth0";
    private static final String G2 = "198.18.0.101";
    /** The harness's deadtime. */
    private static final int DEADTIME_MS = 3000;
    /** A split brain a freeze caused (no STONITH) ends this soon after the resume. */
    private static final int HEAL_MS = 2000;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String layout : List.of("active/passive", "active/active")) {
            for (boolean stonith : new boolean[] {false, true}) {
                for (NodeName frozen : List.of(N1, N2)) {
                    for (boolean timerFirst : new boolean[] {true, false}) {
                        out.add(Arguments.of(layout, stonith, frozen, timerFirst));
                    }
                }
            }
        }
        return out.stream();
    }

    private static List<ResourceGroupDecl> groups(String layout) {
        List<ResourceGroupDecl> aa = TwoNodeHarness.activeActive();
        return layout.equals("active/active") ? aa : aa.subList(0, 1);
    }

    @ParameterizedTest(name = "{0}, STONITH {1}, {2} frozen, timer first {3}")
    @MethodSource("cases")
    void aResumedNodeNeverRunsAGroupThePeerRuns(String layout, boolean stonith, NodeName frozen, boolean timerFirst) {
        List<String> violations = new ArrayList<>();
        int i = 0;
        for (int len = DEADTIME_MS - 500; len <= DEADTIME_MS + 3000; len += 100, i++) {
            int peerDelay = i * 170 % 500 / 10 * 10;  // node2 beats this much after node1
            int offset = i * 130 % 500 / 10 * 10;     // where in node1's beat period the freeze starts
            String v = freezeOnce(groups(layout), stonith, frozen, timerFirst, peerDelay, offset, len);
            if (v != null) {
                violations.add("freeze " + len + " ms (node2 " + peerDelay + " ms later, offset " + offset + " ms): "
                        + v);
            }
        }
        assertThat(violations).as("%s, STONITH %s, %s frozen, timer first %s", layout, stonith, frozen, timerFirst)
                .isEmpty();
    }

    /**
     * One run: both nodes up, {@code frozen} suspended for {@code lenMs}, resumed, 6 s more.
     *
     * @return the first broken rule, or null
     */
    private static String freezeOnce(List<ResourceGroupDecl> groups, boolean stonith, NodeName frozen,
                                     boolean timerFirst, int peerDelayMs, int offsetMs, int lenMs) {
        NodeName live = frozen.equals(N1) ? N2 : N1;
        TwoNodeHarness h = new TwoNodeHarness(groups, FailbackPolicy.ON, 200, stonith);
        h.start(N1);
        h.run(peerDelayMs);
        h.start(N2);
        h.run(3000 + offsetMs);
        h.suspend(frozen);
        int opsAtFreeze = h.ops().size();
        for (int t = 0; t < lenMs; t += 10) {
            h.run(10);
            if (stonith && !both(h).isEmpty()) {
                return both(h) + " on both nodes during the freeze, with STONITH";
            }
        }
        // without STONITH the live node may take over a frozen node's groups (a split brain while it lasts)
        Set<String> takenDuringFreeze = new TreeSet<>();
        for (String op : h.ops().subList(opsAtFreeze, h.ops().size())) {
            String[] w = op.split(" ");
            if (w[0].equals(live.value()) && w[1].equals("start")) {
                takenDuringFreeze.add(w[2]);
            }
        }
        h.resume(frozen, timerFirst);
        int opsAtResume = h.ops().size();
        for (int t = 10; t <= 6000; t += 10) {
            h.run(10);
            Set<String> b = both(h);
            if (b.isEmpty()) {
                continue;
            }
            if (stonith) {
                return b + " on both nodes " + t + " ms after the resume, with STONITH";
            }
            if (!takenDuringFreeze.containsAll(b)) {
                return b + " on both nodes " + t + " ms after the resume, started after it; " + h.ops();
            }
            if (t > HEAL_MS) {
                return b + " still on both nodes " + t + " ms after the resume: nobody let go; " + h.logs();
            }
        }
        for (String op : h.ops().subList(opsAtResume, h.ops().size())) {
            if (op.startsWith(frozen + " peer-lost") || op.startsWith(frozen + " start") && op.endsWith("TAKEOVER")) {
                return "the resumed node acted on its live peer's silence: " + op;
            }
        }
        if (h.trace().stream().anyMatch(l -> l.endsWith(frozen + " fences " + live))) {
            return "the resumed node fenced its live peer";
        }
        Set<String> runs = new TreeSet<>(h.runningOn(N1));
        runs.addAll(h.runningOn(N2));
        if (runs.size() != groups.size() || !both(h).isEmpty()) {
            return "not settled 6 s after the resume: " + h.placement();
        }
        return null;
    }

    private static Set<String> both(TwoNodeHarness h) {
        Set<String> s = new TreeSet<>(h.runningOn(N1));
        s.retainAll(h.runningOn(N2));
        return s;
    }

    @Test
    void aNodeResumedInsideThePeersDeadtimeReadsItsBeatsBeforeDecidingAnything() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.suspend(N1);
        h.run(2600); // with node2's last beat read 0.5 s before the freeze: 3.1 s of silence at the resume
        h.resume(N1, true);
        h.run(3000);
        assertThat(h.logs())
                .noneMatch(l -> l.contains("node node2: is dead") || l.contains("returning after partition"))
                .anyMatch(l -> l.matches(".* node1 WARN: This node did not run for 26\\d0 ms \\(stopped or starved of"
                        + " CPU\\): node2's silence meanwhile is not counted towards its deadtime\\."))
                .noneMatch(l -> l.contains("node1 CRIT: Late heartbeat"));
        assertThat(h.engine(N1).detector().status(N2)).isEqualTo(NodeStatus.ACTIVE);
        assertThat(h.runningOn(N1)).containsExactly(G1);
        assertThat(h.runningOn(N2)).containsExactly(G2);
        assertThat(h.doubleRun()).isNull();
    }

    @Test
    void thePeerThatTookTheFrozenNodesGroupLetsGoWhenTheNodeResumes() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.suspend(N1);
        h.run(4000);
        assertThat(h.runningOn(N2)).as("taken over: node1 is declared dead").containsExactly(G1, G2);
        assertThat(h.runningOn(N1)).as("what a frozen node ran keeps running").containsExactly(G1);
        h.forgetDoubleRun(); // the split brain of a freeze without STONITH
        h.resume(N1, true); // its overdue beat goes first: node2 sees node1 return before its answer
        h.run(1000);
        assertThat(h.runningOn(N2)).containsExactly(G2);
        assertThat(h.runningOn(N1)).containsExactly(G1);
        assertThat(h.logs()).anyMatch(l -> l.endsWith("node2 CRIT: Cluster node node1 returning after partition."))
                .anyMatch(l -> l.endsWith("node1 ERROR: Both machines own our resources! Telling node2 which of them"
                        + " run here."))
                .anyMatch(l -> l.endsWith("node2 ERROR: Both machines own foreign resources! Releasing node1's groups,"
                        + " which it runs itself."))
                .noneMatch(l -> l.contains("node1 WARN: node node2: is dead"));
        assertThat(h.ops()).contains("node2 stop " + G1 + " PARTITION_RELEASE")
                .noneMatch(op -> op.startsWith("node1 stop"));
    }
}
