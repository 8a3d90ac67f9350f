package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One node's move in the rolling migration (docs/migration.md), as an admin does it: its groups to the peer
 * (Heartbeat's {@code hb_standby all}, or {@code hb standby all}), the daemon stopped, the other one swapped
 * in on the same files ({@code lab.sh swap}), checked ({@code hb config check}) and started; it joins the
 * peer and auto_failback brings its group back (with auto_failback off: {@code hb takeover local}, or
 * Heartbeat's {@code hb_takeover local}). Waits read the client's samples; every wait is bounded
 * (a hang bound) and fails with both nodes' daemon output.
 */
final class MigrationSteps {
    static final long HANG_MS = 120_000;
    private final Lab lab;
    private final Path samples;
    private final boolean autoFailback;

    /** @param autoFailback the pair's ha.cf {@code auto_failback}: on, a joining node gets its group back by itself */
    MigrationSteps(Lab lab, Path samples, boolean autoFailback) {
        this.lab = lab;
        this.samples = samples;
        this.autoFailback = autoFailback;
    }

    /**
     * Moves {@code node} from daemon {@code from} to {@code to} ("heartbeat" or "jheartbeat"), adding its two
     * phases (the standby; the stop, swap, start and failback) to {@code phases}.
     */
    void moveNode(String node, String from, String to, List<RollingMigrationDrillIT.Phase> phases) throws Exception {
        String peer = node.equals("node1") ? "node2" : "node1";
        String own = node.equals("node1") ? RollingMigrationDrillIT.G1 : RollingMigrationDrillIT.G2;
        String step = node + " " + from + " -> " + to;
        boolean real = from.equals("heartbeat");
        long t0 = System.nanoTime();
        Lab.Result r = real ? lab.lab("hbcmd", node, "hb_standby", "all") : lab.lab("hb", node, "standby", "all");
        assertThat(r.code()).as("standby on %s: %s", node, r.output()).isZero();
        awaitAnswers(peer, peer, t0);
        awaitSettled();
        long t1 = System.nanoTime();
        phases.add(new RollingMigrationDrillIT.Phase(step, (real ? "hb_standby all" : "hb standby all") + " (to " + peer + ")",
                own, t0, t1, peer));
        r = lab.lab("stop", node);
        assertThat(r.code()).as("stop %s: %s", node, r.output()).isZero();
        r = lab.lab("swap", node, to);
        assertThat(r.code()).as("swap %s: %s", node, r.output()).isZero();
        if (to.equals("jheartbeat")) {
            r = lab.lab("hb", node, "config", "check");
            assertThat(r.code()).as("hb config check on %s's Heartbeat files: %s", node, r.output()).isZero();
        }
        r = lab.lab("start", node);
        assertThat(r.code()).as("start %s: %s", node, r.output()).isZero();
        if (!autoFailback) {
            // auto_failback off: the joined node's group stays on the peer until the node takes it back
            awaitSettled();
            awaitAnswers(peer, peer, System.nanoTime());
            r = to.equals("jheartbeat") ? lab.lab("hb", node, "takeover", "local") : lab.lab("hbcmd", node, "hb_takeover", "local");
            assertThat(r.code()).as("takeover local on %s: %s", node, r.output()).isZero();
        }
        awaitAnswers("node1", "node2", System.nanoTime());
        awaitSettled();
        phases.add(new RollingMigrationDrillIT.Phase(step, "stop, swap, start, " + (autoFailback ? "failback" : "takeover local"),
                own, t1, System.nanoTime(), null));
    }

    /** Waits until the client's latest samples, sent after {@code after}, were answered by node {@code g1} and {@code g2}. */
    void awaitAnswers(String g1, String g2, long after) throws Exception {
        lab.waitUntil(() -> {
            MigrationSamples s = MigrationSamples.read(samples);
            return s.latest(RollingMigrationDrillIT.G1, after).equals(g1)
                    && s.latest(RollingMigrationDrillIT.G2, after).equals(g2);
        }, HANG_MS, "VIP1 answered by " + g1 + " and VIP2 by " + g2);
    }

    /** Waits until neither node is in a resource transition (ours: "resources: stable"; Heartbeat's rscstatus). */
    void awaitSettled() throws Exception {
        lab.waitUntil(() -> settled("node1") && settled("node2"), HANG_MS, "both nodes settled");
        Thread.sleep(1000); // the last resource messages of the exchange cross the wire
    }

    private boolean settled(String node) throws Exception {
        String kind = Files.readString(lab.runDir().resolve(node).resolve("kind")).trim();
        if (kind.equals("jheartbeat")) {
            return lab.lab("status", node).output().contains("resources: stable");
        }
        Lab.Result r = lab.lab("clstatus", node, "rscstatus");
        return r.code() == 0 && !r.output().trim().equals("transition");
    }

    /** Whether {@code fibTrie} (a namespace's /proc/net/fib_trie) lists {@code ip} as a local address. */
    static boolean local(String fibTrie, String ip) {
        return Pattern.compile("\\|-- " + Pattern.quote(ip) + "\\n\\s+/32 host LOCAL").matcher(fibTrie).find();
    }
}
