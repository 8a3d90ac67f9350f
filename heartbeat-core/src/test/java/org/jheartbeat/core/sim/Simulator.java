package org.jheartbeat.core.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.WireCodec;
import org.jheartbeat.core.wire.WireFormatException;
import org.jheartbeat.core.wire.Traffic;
import org.jheartbeat.core.wire.WirePacket;

/**
 * Runs one schedule: two {@link SimNode}s, the {@link SimMedia}, the fencing device, the operator
 * ({@link SimOperator}) and the {@link SimEvent}s, as tasks on one simulated clock (ns, starting at 1 s
 * like {@code FakeClock}), in time order (ties in the order they were scheduled). Every random choice
 * comes from {@code seed}. After every task the {@link Invariants} are checked until the first
 * violation, which is the one reported.
 */
final class Simulator {
    static final long START_NANOS = 1_000_000_000L;
    private static final long WALL_START_MILLIS = 1_700_000_000_000L;

    /** A task on the simulated clock; one bound to a node is dropped when that node's daemon or power ended since. */
    private record Task(long at, long seq, SimNode node, int epoch, Runnable action) { }

    final long seed;
    final SimSetup setup;
    final List<SimEvent> events;
    final long durationMillis;
    final SimStats stats = new SimStats();
    final List<String> groupKeys;
    final List<String> resourceTokens;
    private final Map<String, Integer> resourceIndex = new HashMap<>();
    private final ClusterConfig[] variants = new ClusterConfig[SimSetup.VARIANTS];
    final SimNode[] nodes = new SimNode[2];
    final SimMedia media;
    final Invariants invariants;
    final SimOperator operator;
    private final SplittableRandom fenceRandom;
    private final PriorityQueue<Task> queue = new PriorityQueue<>((a, b) -> a.at != b.at
            ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private long seq;
    long now = START_NANOS;
    private final List<String> trace;
    /** Active fencing-device fault windows, per node whose device it is, per mode. */
    final int[][] fenceFaults = new int[2][SimEvent.FenceMode.values().length];
    /** When each node was last powered off by a fence, ns (-1: never). */
    private final long[] fencedOffAt = {-1, -1};

    /**
     * @param tracing whether to keep a full trace (every log line of both engines): for reports only, it
     *                costs time
     */
    Simulator(long seed, SimSetup setup, List<SimEvent> events, long durationMillis, Invariants.Options options,
              boolean tracing) {
        this.seed = seed;
        this.setup = setup;
        this.events = List.copyOf(events);
        this.durationMillis = durationMillis;
        this.trace = tracing ? new ArrayList<>() : null;
        for (int v = 0; v < SimSetup.VARIANTS; v++) {
            variants[v] = setup.config(v);
        }
        this.groupKeys = setup.groupKeys();
        this.resourceTokens = setup.resourceTokens();
        for (int i = 0; i < resourceTokens.size(); i++) {
            resourceIndex.put(resourceTokens.get(i), i);
        }
        SplittableRandom root = new SplittableRandom(seed ^ 0x5DEECE66DL);
        this.media = new SimMedia(root.split(), (t, action) -> at(t, null, action), this::deliver);
        this.fenceRandom = root.split();
        nodes[0] = new SimNode(this, 0, root.split());
        nodes[1] = new SimNode(this, 1, root.split());
        this.invariants = new Invariants(this, options);
        this.operator = new SimOperator(this);
    }

    ClusterConfig variantConfig(int v) {
        return variants[v];
    }

    int[] resourceIds(ResourceGroupDecl g) {
        int[] out = new int[g.resources().size()];
        for (int i = 0; i < out.length; i++) {
            ResourceSpec r = g.resources().get(i);
            out[i] = resourceIndex.get(r.token());
        }
        return out;
    }

    String[] tokensOf(int[] res) {
        String[] out = new String[res.length];
        for (int i = 0; i < res.length; i++) {
            out[i] = resourceTokens.get(res[i]);
        }
        return out;
    }

    long wallMillis() {
        return WALL_START_MILLIS + (now - START_NANOS) / 1_000_000L;
    }

    /** Schedules {@code action} at {@code atNanos}; bound to {@code node}'s current daemon/power when not null. */
    void at(long atNanos, SimNode node, Runnable action) {
        queue.add(new Task(Math.max(atNanos, now), seq++, node, node == null ? 0 : node.epoch, action));
    }

    boolean tracing() {
        return trace != null;
    }

    void trace(SimNode node, String line) {
        if (trace != null) {
            trace.add(String.format(Locale.ROOT, "%9.3f ", (now - START_NANOS) / 1e9)
                    + (node == null ? "" : node.name + " ") + line);
        }
    }

    List<String> traceLines() {
        return trace == null ? List.of() : List.copyOf(trace);
    }

    /**
     * Runs the schedule to its end.
     *
     * @return the first violation, or null
     */
    Invariants.Violation run() {
        nodes[0].powerOn(0);
        at(START_NANOS + setup.node2StartMillis() * 1_000_000L, null, () -> nodes[1].powerOn(0));
        for (SimEvent e : events) {
            at(START_NANOS + e.atMillis() * 1_000_000L, null, () -> apply(e));
        }
        long end = START_NANOS + durationMillis * 1_000_000L;
        while (!queue.isEmpty() && queue.peek().at <= end) {
            Task t = queue.poll();
            now = t.at;
            if (t.node != null && t.node.epoch != t.epoch) {
                continue;
            }
            try {
                t.action.run();
            } catch (RuntimeException e) {
                // ClusterLoop.run logs such an exception and drops the event; here it is a violation
                StackTraceElement at = null;
                for (StackTraceElement f : e.getStackTrace()) {
                    if (f.getClassName().startsWith("org.jheartbeat.core.") && at == null) {
                        at = f;
                    }
                }
                invariants.fail("(x) exception in the engine", e + (at == null ? "" : " at " + at));
            }
            stats.steps++;
            if (invariants.violation() == null) {
                invariants.afterStep();
            }
        }
        // runs on after a violation (only the first is reported), so every schedule simulates its full length
        now = end;
        stats.nodeNanos += 2 * (end - START_NANOS);
        return invariants.violation();
    }

    /** Node {@code from}'s engine sends {@code packet} on both media ({@code traffic}: how a serial writer queues it). */
    void transmit(SimNode from, WirePacket packet, Traffic traffic) {
        stats.frames++;
        media.send(now, from.index, packet, traffic);
    }

    /** A frame reaches node {@code to} at {@code at} (a corrupted copy of {@code original} is checked first). */
    private void deliver(long at, int to, int link, byte[] frame, byte[] original) {
        if (frame != original) {
            checkCorruptionRejected(nodes[1 - to], original, link, frame);
        }
        at(at, null, () -> {
            SimNode n = nodes[to];
            if (n.daemonRunning()) {
                n.receive(link, frame);
            }
        });
    }

    /** A frame with a flipped byte must fail authentication (or decode to the very message sent). */
    private void checkCorruptionRejected(SimNode from, byte[] original, int link, byte[] frame) {
        stats.corrupted++;
        MessageAuthenticator auth = new MessageAuthenticator(from.config.authKeys());
        HaMessage got;
        try {
            got = WireCodec.decode(frame, auth);
        } catch (WireFormatException e) {
            return;
        }
        try {
            if (got.equals(WireCodec.decode(original, auth))) {
                return;
            }
        } catch (WireFormatException e) {
            // the original does not decode: anything accepted is wrong
        }
        invariants.fail("corrupted frame accepted", "a frame of " + from.name + " with a flipped byte on "
                + SimMedia.LINK_NAMES[link] + " passed authentication: " + got);
    }

    /**
     * {@code fencer}'s device is asked to power the peer off ({@code FencePeer}): how it behaves depends on
     * the {@link SimEvent.FenceMode} windows open now; the peer is powered off when the device acts (and
     * boots again after {@code rebootMillis}: a reset), the fencer learns the outcome later.
     */
    void fence(SimNode fencer) {
        stats.fences++;
        SimNode target = fencer.peer();
        int[] modes = fenceFaults[fencer.index];
        long took = setup.fenceMillis() * 1_000_000L;
        long timeout = SimSetup.FENCE_TIMEOUT_MILLIS * 1_000_000L;
        boolean ok;
        boolean acts;
        long answer;
        if (modes[SimEvent.FenceMode.FAILS.ordinal()] > 0) {
            ok = false;
            acts = false;
            answer = took;
        } else if (modes[SimEvent.FenceMode.TIMES_OUT.ordinal()] > 0) {
            ok = false;
            acts = false;
            answer = timeout;
        } else if (modes[SimEvent.FenceMode.TIMES_OUT_BUT_OFF.ordinal()] > 0) {
            ok = false;
            acts = true;
            answer = timeout;
        } else {
            ok = true;
            acts = true;
            answer = took + (modes[SimEvent.FenceMode.CONFIRMS_LATE.ordinal()] > 0
                    ? 2_000_000_000L + fenceRandom.nextLong(6_000_000_000L) : 0);
        }
        trace(fencer, "fencing device asked to power off " + target.name);
        if (acts) {
            at(now + took, null, () -> {
                if (target.powered) {
                    stats.fencedOff++;
                    fencedOffAt[target.index] = now;
                    if (fencedOffAt[fencer.index] >= 0 && now - fencedOffAt[fencer.index] < 10_000_000_000L) {
                        stats.mutualFences++;
                        trace(null, "both nodes fenced each other");
                    }
                    target.powerOff("fenced by " + fencer.name);
                    at(now + setup.rebootMillis() * 1_000_000L, null, () -> target.powerOn(0));
                }
                invariants.fencedOff(target);
            });
        }
        at(now + answer, fencer, () -> fencer.daemonDo(() -> fencer.execute(fencer.engine.onFenceDone(ok,
                ok ? "OK (simulated device)" : "simulated device failure", now, fencer.wall()))));
    }

    /** Applies one schedule event (and schedules its end, for a window). */
    private void apply(SimEvent e) {
        trace(null, "EVENT " + e.describe());
        invariants.eventApplied(e);
        long end = now + e.durationMillis() * 1_000_000L;
        SimNode n = nodes[e.node()];
        switch (e.kind()) {
            case LOSS, DELAY, DUPLICATE, CORRUPT -> {
                for (SimMedia.Pipe p : media.select(e.target(), e.dir())) {
                    List<Integer> list = switch (e.kind()) {
                        case LOSS -> p.loss;
                        case DELAY -> p.delay;
                        case DUPLICATE -> p.duplicate;
                        default -> p.corrupt;
                    };
                    Integer v = e.param();
                    list.add(v);
                    at(end, null, () -> list.remove(v));
                }
            }
            case REPLAY -> {
                for (SimMedia.Pipe p : media.select(e.target(), e.dir())) {
                    media.replay(now, p, e.param(), (at, to, link, frame, original) -> at(at, null, () -> {
                        if (nodes[to].daemonRunning()) {
                            nodes[to].receive(link, frame);
                        }
                    }));
                }
            }
            case CUT -> {
                for (SimMedia.Pipe p : media.select(e.target(), e.dir())) {
                    p.cuts++;
                    at(end, null, () -> p.cuts--);
                }
            }
            case FLAP -> {
                for (SimMedia.Pipe p : media.select(e.target(), e.dir())) {
                    p.flaps++;
                    flap(p, Math.max(50, e.param()), end);
                }
            }
            case FREEZE -> {
                n.freeze();
                at(end, null, n::resume);
            }
            case KILL -> {
                n.killDaemon();
                at(end, null, n::startDaemon);
            }
            case POWER -> {
                n.powerOff("power cut");
                at(end, null, () -> n.powerOn(1_000_000_000L));
            }
            case SHUTDOWN -> {
                operator.shutdown(n);
                at(end, null, n::startDaemon);
            }
            case FENCE -> {
                fenceFaults[e.node()][e.param()]++;
                at(end, null, () -> fenceFaults[e.node()][e.param()]--);
            }
            case AGENT -> {
                n.agents.faults[e.target()][e.param()]++;
                at(end, null, () -> n.agents.faults[e.target()][e.param()]--);
            }
            case MONITOR -> n.agents.monitorFails(e.target());
            case WALL_JUMP -> n.wallOffsetMillis += e.param() * 1000L;
            default -> operator.apply(e, n);
        }
    }

    private void flap(SimMedia.Pipe p, long periodMillis, long end) {
        if (now >= end) {
            p.flapCut = false;
            p.flaps--;
            return;
        }
        p.flapCut = !p.flapCut;
        at(Math.min(end, now + periodMillis * 1_000_000L), null, () -> flap(p, periodMillis, end));
    }
}
