package org.jheartbeat.core.sim;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.GroupOpReason;

/**
 * What really runs on one simulated node, and its group executor: operations of one group run one at a
 * time in order, as {@code ResourceGroupExecutor} runs them; a start goes left to right and rolls back
 * what it started when a resource fails, a stop goes right to left and ends at the first resource that
 * cannot be stopped ({@code ResourceGroupRunner}). While an operation runs, what it touches counts as
 * running (pessimistic: a start counts from its first instant, a stop until its last). Agent faults
 * ({@link SimEvent.AgentFault}) are taken as they are when an operation begins.
 */
final class SimAgents {
    private final SimNode node;
    private final SplittableRandom random;
    /** Per resource (index into the setup's resource tokens): running here. */
    final boolean[] running;
    private final ArrayDeque<Op>[] queues;
    /** Active agent fault windows, per group (setup group index) and fault. */
    final int[][] faults;
    /** For the running configuration: local group index → setup group index, and → resource indices. */
    int[] gidOf = new int[0];
    int[][] resOf = new int[0][];

    private static final class Op {
        int local;
        int gid;
        int[] res;
        boolean start;
        GroupOpReason reason;
        boolean report;
        boolean[] before;
        boolean startFails;
        boolean stopFails;
        boolean hangs;
        /** Begun while its agents were slow or hung: it may outlast the fault window. */
        boolean slow;
    }

    @SuppressWarnings("unchecked")
    SimAgents(SimNode node, SplittableRandom random) {
        this.node = node;
        this.random = random;
        int groups = node.sim.groupKeys.size();
        this.running = new boolean[node.sim.resourceTokens.size()];
        this.queues = new ArrayDeque[groups];
        for (int g = 0; g < groups; g++) {
            queues[g] = new ArrayDeque<>();
        }
        this.faults = new int[groups][SimEvent.AgentFault.values().length];
    }

    /** The daemon runs {@code c} from now on: its group indices map to these groups and resources. */
    void configChanged(ClusterConfig c) {
        List<ResourceGroupDecl> gs = c.resourceGroups();
        gidOf = new int[gs.size()];
        resOf = new int[gs.size()][];
        for (int i = 0; i < gs.size(); i++) {
            gidOf[i] = node.sim.groupKeys.indexOf(gs.get(i).key());
            resOf[i] = node.sim.resourceIds(gs.get(i));
        }
    }

    /** The local index of setup group {@code gid} in the running configuration, or -1. */
    int localOf(int gid) {
        for (int i = 0; i < gidOf.length; i++) {
            if (gidOf[i] == gid) {
                return i;
            }
        }
        return -1;
    }

    boolean runsAny(int local) {
        for (int r : resOf[local]) {
            if (running[r]) {
                return true;
            }
        }
        return false;
    }

    boolean runsFully(int local) {
        for (int r : resOf[local]) {
            if (!running[r]) {
                return false;
            }
        }
        return true;
    }

    /** Whether an operation of setup group {@code gid} is queued or running here. */
    boolean busy(int gid) {
        return !queues[gid].isEmpty();
    }

    /** Whether an operation of setup group {@code gid} begun while its agents were slow or hung still runs. */
    boolean slowOpRunning(int gid) {
        Op op = queues[gid].peekFirst();
        return op != null && op.slow;
    }

    /** Whether a start of a group holding resource {@code r} is queued or running here. */
    boolean startPending(int r) {
        for (ArrayDeque<Op> q : queues) {
            for (Op op : q) {
                if (op.start) {
                    for (int x : op.res) {
                        if (x == r) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    private boolean fault(int gid, SimEvent.AgentFault f) {
        return gid >= 0 && faults[gid][f.ordinal()] > 0;
    }

    /**
     * The start-up release of a group found running ({@code StartupProbe}): every resource stopped at
     * once, unless stops fail now.
     *
     * @return whether it is down
     */
    boolean releaseAtStartup(int local) {
        return releaseAtStartup(gidOf[local], resOf[local]);
    }

    /** {@link #releaseAtStartup(int)} of setup group {@code gid} with resources {@code res}, in the configuration or not. */
    boolean releaseAtStartup(int gid, int[] res) {
        if (fault(gid, SimEvent.AgentFault.STOP_FAILS) || fault(gid, SimEvent.AgentFault.ROLLBACK_FAILS)
                || fault(gid, SimEvent.AgentFault.HANGS)) {
            return false;
        }
        for (int r : res) {
            running[r] = false;
        }
        return true;
    }

    /** The groups (local indices) of {@code which} (null: all) that run fully ({@code fully}) or partly here. */
    Set<Integer> probe(boolean fully, Set<Integer> which) {
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < resOf.length; i++) {
            if ((which == null || which.contains(i)) && (fully ? runsFully(i) : runsAny(i) && !runsFully(i))) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * Queues a start or stop of local group {@code local}; {@code report}: its result goes to the engine
     * (a reload's stop of a removed group only logs it).
     */
    void submit(int local, boolean start, GroupOpReason reason, boolean report) {
        Op op = new Op();
        op.local = local;
        op.gid = gidOf[local];
        op.res = resOf[local];
        op.start = start;
        op.reason = reason;
        op.report = report;
        queues[op.gid].addLast(op);
        if (queues[op.gid].size() == 1) {
            begin(op);
        }
    }

    private void begin(Op op) {
        int gid = op.gid;
        boolean hangs = fault(gid, SimEvent.AgentFault.HANGS);
        boolean rollbackFails = fault(gid, SimEvent.AgentFault.ROLLBACK_FAILS);
        op.hangs = hangs;
        op.startFails = hangs || rollbackFails || fault(gid, SimEvent.AgentFault.START_FAILS);
        op.stopFails = fault(gid, SimEvent.AgentFault.STOP_FAILS) || rollbackFails || hangs && !op.start;
        long per = op.start ? node.sim.setup.startMillis() : node.sim.setup.stopMillis();
        long millis = 0;
        for (int i = 0; i < op.res.length; i++) {
            millis += per / 2 + random.nextLong(per + 1);
        }
        if (fault(gid, SimEvent.AgentFault.SLOW)) {
            millis *= 10;
            op.slow = true;
        }
        if (hangs) {
            millis = SimSetup.AGENT_TIMEOUT_MILLIS;
            op.slow = true;
        }
        if (op.start) {
            op.before = new boolean[op.res.length];
            for (int i = 0; i < op.res.length; i++) {
                op.before[i] = running[op.res[i]];
                running[op.res[i]] = true;
            }
        }
        node.sim.at(node.sim.now + millis * 1_000_000L, node, () -> complete(op));
    }

    /**
     * Which resource of a failing start fails: a hung agent hangs at the first one (its status); otherwise
     * the second (the only one in a group of one), or the first after it that was not already running (a
     * running resource is only re-asserted, as {@code ResourceGroupRunner} does); -1 when none can fail.
     */
    private static int failingResource(Op op) {
        if (op.hangs) {
            return 0;
        }
        for (int j = Math.min(1, op.res.length - 1); j < op.res.length; j++) {
            if (!op.before[j]) {
                return j;
            }
        }
        return -1;
    }

    private void complete(Op op) {
        boolean ok = true;
        String detail = "";
        String[] tokens = node.sim.tokensOf(op.res);
        int f = op.start && op.startFails ? failingResource(op) : -1;
        if (f >= 0) {
            ok = false;
            for (int j = f + 1; j < op.res.length; j++) {
                running[op.res[j]] = op.before[j]; // never started
            }
            List<String> stuck = new java.util.ArrayList<>();
            for (int j = f; j >= 0; j--) {
                if (op.before[j]) {
                    running[op.res[j]] = true; // already running: not started here, so not rolled back
                } else if (op.hangs && j == f) {
                    running[op.res[j]] = false; // its status hung: never started, killed at the timeout
                } else if (op.stopFails) {
                    stuck.add(tokens[j]);
                } else {
                    running[op.res[j]] = false;
                }
            }
            detail = "resource " + tokens[f] + (op.hangs ? " timed out" : " failed to start")
                    + ": simulated agent failure"
                    + (stuck.isEmpty() ? "" : "; Resource STOP failure during rollback: " + stuck);
        } else if (!op.start) {
            for (int j = op.res.length - 1; j >= 0; j--) {
                if (op.stopFails) {
                    ok = false;
                    detail = "Resource STOP failure in group " + tokens[0] + ": [" + tokens[j] + " (simulated)]";
                    break;
                }
                running[op.res[j]] = false;
            }
        }
        node.sim.trace(node, (op.start ? "start " : "stop ") + tokens[0] + (ok ? " done" : " FAILED: " + detail));
        node.sim.invariants.truthChanged();
        if (op.report) {
            node.sim.invariants.groupDone(node, op.gid, op.start, ok);
        }
        boolean result = ok;
        String why = detail;
        // as ResourceGroupExecutor's StartResult: a failed start says whether part of the group is left here
        boolean left = false;
        for (int r : op.res) {
            left |= running[r];
        }
        org.jheartbeat.core.takeover.StartOutcome outcome = ok ? org.jheartbeat.core.takeover.StartOutcome.STARTED
                : left ? org.jheartbeat.core.takeover.StartOutcome.FAILED_STILL_RUNNING
                : org.jheartbeat.core.takeover.StartOutcome.FAILED_STOPPED;
        node.daemonDo(() -> {
            ArrayDeque<Op> q = queues[op.gid];
            if (q.peekFirst() == op) {
                q.removeFirst();
                if (!q.isEmpty()) {
                    begin(q.peekFirst());
                }
            }
            if (op.reason == GroupOpReason.REMOVED && node.engine != null) {
                // as Reconfiguration: the engine reports a removed group stopping until its stop ends, then gone
                // or (failed) BLOCKED, unmanaged
                node.execute(node.engine.onRemovedGroupStopped(node.sim.groupKeys.get(op.gid), result, node.sim.now,
                        node.wall()));
            }
            if (op.report && node.engine != null) {
                node.execute(op.start ? node.engine.onGroupStarted(op.local, outcome, why, node.sim.now, node.wall())
                        : node.engine.onGroupDone(op.local, false, result, why, node.sim.now, node.wall()));
            }
        });
    }

    /**
     * Monitoring of setup group {@code gid} finds its last resource dead and gives up (restarts used up), as
     * {@code ClusterLoop.groupFailedRunning}: only for a group running here, watched (not in maintenance).
     */
    void monitorFails(int gid) {
        int local = localOf(gid);
        if (!node.live() || local < 0 || !runsFully(local) || busy(gid)
                || node.engine.machine().maintenancePolicy().covers(local)) {
            return;
        }
        int[] res = resOf[local];
        running[res[res.length - 1]] = false;
        String token = node.sim.tokensOf(res)[res.length - 1];
        node.sim.trace(node, "monitor: " + token + " died; restarts used up");
        node.execute(node.engine.onGroupFailedRunning(local, "resource " + token + " failed (simulated monitor)",
                node.sim.now, node.wall()));
    }

    /** The power went: nothing runs, nothing is queued. */
    void powerLost() {
        java.util.Arrays.fill(running, false);
        daemonGone();
    }

    /** The daemon ended: its executor's queues are gone (an operation under way leaves what it touched). */
    void daemonGone() {
        for (ArrayDeque<Op> q : queues) {
            q.clear();
        }
    }
}
