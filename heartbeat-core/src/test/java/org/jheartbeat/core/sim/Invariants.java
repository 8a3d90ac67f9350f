package org.jheartbeat.core.sim;

import java.util.Arrays;
import java.util.Locale;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.takeover.TakeoverState;

/**
 * The properties checked after every step of a simulation (docs/simulation.md):
 * <ul>
 *   <li>(a) with STONITH, no resource ever runs on both nodes, and no node starts a group while the other
 *       runs (or starts) it: a takeover comes only after the peer is confirmed off. Without STONITH, no
 *       node starts a group the other runs unless the other's frames were cut off within deadtime + 1 s
 *       (Heartbeat's known split brain, counted), and such a split brain ends within {@link #healBound}
 *       once the links work again;</li>
 *   <li>(b) a group runs (fully) somewhere within {@link #liveBound} of the moment both nodes are up, the
 *       links work, nothing of it has failed, it is in no maintenance, both define it alike, no
 *       operator command came and no node goes standby (a failback asked again once both nodes are
 *       stable moves groups long after the cluster became calm; a standby's wait is bounded);</li>
 *   <li>(c) a group whose start failed on both nodes is started by neither until an operator clears it or
 *       a daemon restarts, and (with {@link Options#statusTruth}) once quiet for {@value #STATUS_SETTLE_NANOS} ns
 *       both show it failed and running nowhere;</li>
 *   <li>(d) a live, unfrozen daemon sends a status beat at least every keepalive + {@value #BEAT_SLACK_NANOS} ns;</li>
 *   <li>(e) nothing starts or stops a group in maintenance;</li>
 *   <li>(f) with {@link Options#statusTruth}: once things have been quiet for {@value #STATUS_SETTLE_NANOS}
 *       ns, what each node's status says of where a group runs is true.</li>
 * </ul>
 */
final class Invariants {
    static final long BEAT_SLACK_NANOS = 200_000_000L;
    static final long STATUS_SETTLE_NANOS = 5_000_000_000L;

    /**
     * @param statusTruth check (f) and the status part of (c); off while the status decision is known to lie
     */
    record Options(boolean statusTruth) {
        static final Options DEFAULT = new Options(false);
    }

    /**
     * A broken invariant: which, what exactly, when (ns of simulated time), and the known open bug it is
     * an instance of ({@link KnownBugs}), or null.
     */
    record Violation(String rule, String detail, long atNanos, String knownBug) {
        String describe() {
            return String.format(Locale.ROOT, "%s at %.3f s: %s%s", rule, (atNanos - Simulator.START_NANOS) / 1e9,
                    detail, knownBug == null ? "" : " [known open bug: " + knownBug + "]");
        }
    }

    private final Simulator sim;
    private final Options options;
    private Violation violation;
    /** Last time frames from node i could not reach the other node (it was down, frozen, or every link bad). */
    private final long[] lastCutOff = {Simulator.START_NANOS, Simulator.START_NANOS};
    /** Per setup group: last time something of it was in trouble (agent faults, failed, blocked, maintenance). */
    private final long[] lastTrouble;
    /** Per resource: since when it runs on both nodes, or -1. */
    private final long[] bothSince;
    /** Per node, per setup group: its start failed there (truth), not cleared since. */
    private final boolean[][] startFailed;
    private long lastCommand = Simulator.START_NANOS;
    /** Last time a node was going standby (a planned move: its groups stop here, then start there). */
    private long lastStandby = Simulator.START_NANOS;
    private long lastTruthChange = Simulator.START_NANOS;

    Invariants(Simulator sim, Options options) {
        this.sim = sim;
        this.options = options;
        this.lastTrouble = new long[sim.groupKeys.size()];
        Arrays.fill(lastTrouble, Simulator.START_NANOS);
        this.bothSince = new long[sim.resourceTokens.size()];
        Arrays.fill(bothSince, -1);
        this.startFailed = new boolean[2][sim.groupKeys.size()];
    }

    Violation violation() {
        return violation;
    }

    void fail(String rule, String detail) {
        fail(rule, detail, null);
    }

    void fail(String rule, String detail, String knownBug) {
        if (violation == null) {
            violation = new Violation(rule, detail, sim.now, knownBug);
            sim.stats.violations++;
            sim.trace(null, "VIOLATION " + violation.describe());
        }
    }

    /** How long a split brain without STONITH may last once the links work again: deadtime + 2 keepalives + stops. */
    long healBound(int gid) {
        return sim.setup.timing().deadtime().toNanos() + 2 * sim.setup.timing().keepalive().toNanos()
                + opNanos(gid, sim.setup.stopMillis()) + 2_000_000_000L;
    }

    /**
     * How long a group may run nowhere once everything is calm: deadtime, comm up (a keepalive and a
     * {@code reqnodes} second), the configuration digest's grace (two keepalives), a stop elsewhere and its
     * start (each at most 1.5 times its nominal time per resource), and 2 s to settle.
     */
    long liveBound(int gid) {
        return sim.setup.timing().deadtime().toNanos() + 3 * sim.setup.timing().keepalive().toNanos() + 1_000_000_000L
                + opNanos(gid, sim.setup.startMillis()) + opNanos(gid, sim.setup.stopMillis()) + 2_000_000_000L;
    }

    private long opNanos(int gid, long perResourceMillis) {
        int n = 1;
        for (int v = 0; v < SimSetup.VARIANTS; v++) {
            for (ResourceGroupDecl g : sim.variantConfig(v).resourceGroups()) {
                if (g.key().equals(sim.groupKeys.get(gid))) {
                    n = Math.max(n, g.resources().size());
                }
            }
        }
        return n * perResourceMillis * 3 / 2 * 1_000_000L;
    }

    void eventApplied(SimEvent e) {
        switch (e.kind()) {
            case STANDBY, TAKEOVER, FAILBACK, CLEANUP, MAINTENANCE, RELOAD, SHUTDOWN -> commandIssued();
            default -> { }
        }
        if (e.kind() == SimEvent.Kind.MONITOR) {
            lastTrouble[e.target()] = sim.now; // it failed: it moves (or stays down) as a failure does
        }
        if (e.kind() == SimEvent.Kind.CLEANUP) {
            for (boolean[] f : startFailed) {
                if (e.target() < 0) {
                    Arrays.fill(f, false);
                } else {
                    f[e.target()] = false;
                }
            }
        }
    }

    void commandIssued() {
        lastCommand = sim.now;
    }

    void truthChanged() {
        lastTruthChange = sim.now;
    }

    /** A start or stop of a group ended on {@code node} (truth). */
    void groupDone(SimNode node, int gid, boolean start, boolean ok) {
        if (start && !ok && gid >= 0) {
            startFailed[node.index][gid] = true;
        }
    }

    void fencedOff(SimNode target) {
        truthChanged();
    }

    void daemonStarted(SimNode node) {
        Arrays.fill(startFailed[node.index], false); // a new daemon, and its peer, forget its failures
        Arrays.fill(startFailed[1 - node.index], false);
    }

    /** (a), (c), (e) at the moment a node's engine asks to start local group {@code i}. */
    void startIssued(SimNode node, int i, GroupOpReason reason) {
        int gid = node.agents.gidOf[i];
        String key = sim.groupKeys.get(gid);
        if (node.engine.machine().maintenancePolicy().covers(i)) {
            fail("(e) maintenance", node.name + " starts " + key + " (" + reason + ") although it is in maintenance");
        }
        if (startFailed[0][gid] && startFailed[1][gid]) {
            fail("(c) failed on both nodes", node.name + " starts " + key + " (" + reason + ") although its start"
                    + " failed on both nodes and nobody cleared it");
        }
        SimNode peer = node.peer();
        if (!peer.powered) {
            return;
        }
        for (int r : node.agents.resOf[i]) {
            boolean peerRuns = peer.agents.running[r];
            if (!peerRuns && !peer.agents.startPending(r)) {
                continue;
            }
            String what = node.name + " starts " + key + " (" + reason + ") while " + peer.name
                    + (peerRuns ? " runs " : " is starting ") + sim.resourceTokens.get(r);
            String known = KnownBugs.atStart(sim, node, i, reason);
            if (sim.setup.stonith()) {
                fail("(a) takeover before the peer is confirmed off", what, known);
            } else if (sim.now - lastCutOff[peer.index] > excuse()) {
                fail("(a) split brain while the links work", what + "; frames from " + peer.name + " reached "
                        + node.name + " for the last " + (sim.now - lastCutOff[peer.index]) / 1_000_000 + " ms",
                        known);
            }
            return;
        }
    }

    /** How recently the peer's frames must have been cut off for a takeover without STONITH to be excused. */
    private long excuse() {
        return sim.setup.timing().deadtime().toNanos() + 1_000_000_000L;
    }

    /** (e) at the moment {@code node} stops local group {@code i} (the engine, or a reload). */
    void stopIssued(SimNode node, int i, String reason) {
        if (node.engine.machine().maintenancePolicy().covers(i)) {
            fail("(e) maintenance", node.name + " stops " + node.config.resourceGroups().get(i).key() + " (" + reason
                    + ") although it is in maintenance", KnownBugs.atStopInMaintenance(reason));
        }
    }

    void afterStep() {
        long now = sim.now;
        for (int n = 0; n < 2; n++) {
            SimNode node = sim.nodes[n];
            if (!node.live() || !sim.media.cleanFrom(n)) {
                lastCutOff[n] = now;
            }
            if (node.live() && now - node.lastBeatNanos > sim.setup.timing().keepalive().toNanos() + BEAT_SLACK_NANOS) {
                fail("(d) beats", node.name + " sent no status for " + (now - node.lastBeatNanos) / 1_000_000 + " ms");
            }
        }
        long calmComm = Math.max(lastCutOff[0], lastCutOff[1]);
        updateTrouble(now);
        checkBoth(now, calmComm);
        for (SimNode node : sim.nodes) {
            if (node.engine != null && node.engine.machine().state() == TakeoverState.STANDBY_GIVING) {
                lastStandby = now;
            }
        }
        for (int gid = 0; gid < lastTrouble.length; gid++) {
            checkLive(gid, now, Math.max(Math.max(calmComm, lastStandby), Math.max(lastTrouble[gid], lastCommand)));
        }
    }

    private void updateTrouble(long now) {
        boolean agents = false;
        for (SimNode node : sim.nodes) {
            for (int gid = 0; gid < lastTrouble.length; gid++) {
                agents |= node.agents.slowOpRunning(gid);
                for (int c : node.agents.faults[gid]) {
                    agents |= c > 0;
                }
            }
        }
        if (agents) {
            // a slow or failing agent of any group keeps the machine unsettled, which holds back every group
            Arrays.fill(lastTrouble, now);
            return;
        }
        for (int gid = 0; gid < lastTrouble.length; gid++) {
            for (SimNode node : sim.nodes) {
                boolean trouble = false;
                if (node.engine != null) {
                    int i = node.agents.localOf(gid);
                    if (i >= 0) {
                        TakeoverMachine m = node.engine.machine();
                        GroupState s = m.groupState(i);
                        trouble |= s == GroupState.FAILED || s == GroupState.BLOCKED || m.peerFailed(i)
                                || m.maintenancePolicy().covers(i);
                    }
                }
                if (trouble) {
                    lastTrouble[gid] = now;
                }
            }
        }
    }

    /** (a) at every step: a resource on both nodes. */
    private void checkBoth(long now, long calmComm) {
        boolean[] a = sim.nodes[0].agents.running;
        boolean[] b = sim.nodes[1].agents.running;
        for (int r = 0; r < a.length; r++) {
            if (!(a[r] && b[r])) {
                if (bothSince[r] >= 0) {
                    sim.stats.splitBrainNanos += now - bothSince[r];
                    bothSince[r] = -1;
                }
                continue;
            }
            if (bothSince[r] < 0) {
                bothSince[r] = now;
                sim.stats.splitBrains++;
                sim.trace(null, "resource " + sim.resourceTokens.get(r) + " runs on both nodes");
            }
            if (sim.setup.stonith()) {
                fail("(a) runs on both nodes with STONITH", "resource " + sim.resourceTokens.get(r)
                        + " runs on node1 and node2", KnownBugs.splitBrain(sim, bothSince[r]));
                return;
            }
            int gid = groupOfResource(r);
            long since = Math.max(Math.max(calmComm, bothSince[r]), gid < 0 ? 0 : lastTrouble[gid]);
            if (gid >= 0 && now - since > healBound(gid)) {
                fail("(a) split brain not healed", "resource " + sim.resourceTokens.get(r) + " has run on both nodes"
                        + " since " + fmt(bothSince[r]) + " although the links work and both daemons run since "
                        + fmt(since) + " (bound " + healBound(gid) / 1_000_000 + " ms)",
                        KnownBugs.splitBrain(sim, bothSince[r]));
                return;
            }
        }
    }

    private int groupOfResource(int r) {
        for (SimNode node : sim.nodes) {
            for (int i = 0; i < node.agents.resOf.length; i++) {
                for (int x : node.agents.resOf[i]) {
                    if (x == r) {
                        return node.agents.gidOf[i];
                    }
                }
            }
        }
        return -1;
    }

    /** (b), and the status checks (c) and (f), for setup group {@code gid} calm since {@code since}. */
    private void checkLive(int gid, long now, long since) {
        int i0 = sim.nodes[0].agents.localOf(gid);
        int i1 = sim.nodes[1].agents.localOf(gid);
        if (i0 < 0 || i1 < 0 || sim.nodes[0].engine == null || sim.nodes[1].engine == null) {
            return;
        }
        ResourceGroupDecl d0 = sim.nodes[0].config.resourceGroups().get(i0);
        ResourceGroupDecl d1 = sim.nodes[1].config.resourceGroups().get(i1);
        if (!d0.preferredNode().equals(d1.preferredNode()) || !d0.resources().equals(d1.resources())) {
            return;
        }
        boolean on0 = sim.nodes[0].agents.runsFully(i0);
        boolean on1 = sim.nodes[1].agents.runsFully(i1);
        if (options.statusTruth() && sim.nodes[0].live() && sim.nodes[1].live()
                && now - Math.max(since, lastTruthChange) >= STATUS_SETTLE_NANOS
                && sim.nodes[0].engine.machine().groupState(i0) == GroupState.FAILED
                && sim.nodes[1].engine.machine().groupState(i1) == GroupState.FAILED) {
            // (c): failed on both nodes: both show it failed and running nowhere
            for (int n = 0; n < 2; n++) {
                String says = SimChecks.statusPlace(sim.nodes[n].engine, sim.nodes[n].config, n == 0 ? i0 : i1);
                if (!says.equals("-")) {
                    fail("(c) failed on both nodes", sim.nodes[n].name + "'s status says " + sim.groupKeys.get(gid)
                            + " (failed on both nodes) runs on " + says);
                    return;
                }
            }
        }
        if (!on0 && !on1 && now - since > liveBound(gid)) {
            fail("(b) runs nowhere", sim.groupKeys.get(gid) + " runs on neither node although all is calm since "
                    + fmt(since) + " (bound " + liveBound(gid) / 1_000_000 + " ms)", KnownBugs.runsNowhere(sim, since));
            return;
        }
        if (!options.statusTruth() || now - Math.max(since, lastTruthChange) < STATUS_SETTLE_NANOS || on0 && on1) {
            return;
        }
        String truth = on0 ? "node1" : on1 ? "node2" : "-";
        for (int n = 0; n < 2; n++) {
            SimNode node = sim.nodes[n];
            int i = n == 0 ? i0 : i1;
            String says = SimChecks.statusPlace(node.engine, node.config, i);
            if (!says.equals(truth)) {
                fail("(f) status truth", node.name + "'s status says " + sim.groupKeys.get(gid) + " runs on " + says
                        + ", it runs on " + truth);
                return;
            }
        }
    }

    private static String fmt(long nanos) {
        return String.format(Locale.ROOT, "%.3f s", (nanos - Simulator.START_NANOS) / 1e9);
    }
}
