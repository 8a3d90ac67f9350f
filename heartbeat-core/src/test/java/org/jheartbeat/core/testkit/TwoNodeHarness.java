package org.jheartbeat.core.testkit;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.LogSettings;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.StartOutcome;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;

/**
 * Two {@link NodeEngine}s joined by an in-memory link, driven by one {@link FakeClock}: the
 * {@code TwoNodeHarness} of STYLE.md. Packets go through the real codec and authentication; group
 * operations complete after {@code groupOpMillis} of fake time. A node can be powered off (its engine
 * is dropped, its groups stop running instantly, as with a power cut) and started again with a new
 * generation. Records every group start/stop and checks after every step that no group runs on both
 * nodes at once.
 */
public final class TwoNodeHarness {
    public static final NodeName N1 = NodeName.of("node1");
    public static final NodeName N2 = NodeName.of("node2");

    private final FakeClock clock = new FakeClock();
    private final ClusterConfig config;
    private final long groupOpMillis;
    private final Node[] nodes = new Node[2];
    private final List<String> trace = new ArrayList<>();
    private final List<String> logs = new ArrayList<>();
    private final List<String> ops = new ArrayList<>();
    private boolean linkUp = true;
    private boolean serialEncoding;
    private int lossPercent;
    private int fenceFailuresLeft;
    private long fenceAttempts;
    private final java.util.Random lossRandom = new java.util.Random(20);
    private long dropped;
    private long generationSeed = 100;
    private String doubleRun;

    private final class Node {
        final NodeName name;
        ClusterConfig config;
        /** The takeover settings its daemon starts with (fence delay, self-fencing). */
        org.jheartbeat.core.takeover.TakeoverSettings takeover = org.jheartbeat.core.takeover.TakeoverSettings.DEFAULTS;
        NodeEngine engine;
        OutboundStamper stamper;
        final Set<Integer> running = new TreeSet<>();
        final Deque<long[]> pendingOps = new ArrayDeque<>(); // {dueNanos, group, start?1:0}
        final Deque<byte[]> inbox = new ArrayDeque<>();
        boolean frozen;
        /** While frozen, frames sent to it wait in its socket buffer (instead of being lost). */
        boolean keepFrames;
        /** At its first step after a thaw, its timer runs before it reads the frames that waited. */
        boolean timerFirst;
        long fenceDueNanos = Long.MAX_VALUE;
        /** Group keys whose start fails here (rolled back: not running) / whose stop fails (keeps running). */
        final Set<String> failingStarts = new TreeSet<>();
        final Set<String> failingStops = new TreeSet<>();
        /** Group keys whose failing start also fails its rollback: part of the group keeps running here. */
        final Set<String> failingRollbacks = new TreeSet<>();
        /** Whether this node's ping nodes answer it (see {@link #pingAnswers}). */
        boolean pingsAnswer = true;
        /** Whether this node plays a Heartbeat 3.0.6 peer: its jheartbeat-only messages ({@code jhb-*}) are not sent. */
        boolean heartbeat306;
        /** Non-null while {@link #capture} records what this node sends. */
        List<byte[]> captured;

        Node(NodeName name) {
            this.name = name;
        }
    }

    /** A harness over {@code groups}, with keepalive 500 ms, deadtime 3 s, initdead 10 s. */
    public TwoNodeHarness(List<ResourceGroupDecl> groups, FailbackPolicy failback, long groupOpMillis) {
        this(groups, failback, groupOpMillis, false);
    }

    /**
     * @param stonith whether both nodes have a STONITH device ({@code stonith_host * null node1 node2});
     *                a successful fence powers the target off, as a UPS would
     */
    public TwoNodeHarness(List<ResourceGroupDecl> groups, FailbackPolicy failback, long groupOpMillis, boolean stonith) {
        this.config = new ClusterConfig(Path.of("/nonexistent/ha.d"), Timing.ofMillis(500, 2000, 3000, 10_000), 694,
                List.of(N1, N2), List.of(new MediumDecl.Ucast("eth1", "198.18.1.2", 694, 1)), failback,
                LogSettings.none(), AuthKeys.single(1, AuthMethod.SHA1, "testsecret".getBytes()), groups, stonith ? List.of(new org.jheartbeat.core.config.StonithDecl(java.util.Optional.empty(),
                "null", List.of("node1", "node2"), java.util.Optional.empty(), 12)) : List.of());
        this.groupOpMillis = groupOpMillis;
        nodes[0] = new Node(N1);
        nodes[1] = new Node(N2);
        nodes[0].config = config;
        nodes[1].config = config;
    }

    /** The configuration both nodes start with unless {@link #configFor} changed one. */
    public ClusterConfig config() {
        return config;
    }

    /**
     * Gives {@code n} its own configuration from its next {@link #start} on (e.g. a different
     * haresources, to test the config digest). Groups are matched across nodes by key.
     */
    public TwoNodeHarness configFor(NodeName n, ClusterConfig c) {
        node(n).config = c;
        return this;
    }

    /** Gives {@code n}'s daemon these takeover settings (fence delay, self-fencing) from its next {@link #start} on. */
    public TwoNodeHarness takeoverSettings(NodeName n, org.jheartbeat.core.takeover.TakeoverSettings settings) {
        node(n).takeover = settings;
        return this;
    }

    /** The lab's default: {@code node1 198.18.0.100/24/eth0 labweb} and {@code node2 198.18.0.101 labweb2}. */
    public static List<ResourceGroupDecl> activeActive() {
        return List.of(
                new ResourceGroupDecl(N1, List.of(new ResourceSpec("IPaddr", List.of("198.18.0.100/24/eth0"),
                        "198.18.0.100/24/eth0"), new ResourceSpec("labweb", List.of(), "labweb")), 1),
                new ResourceGroupDecl(N2, List.of(new ResourceSpec("IPaddr", List.of("198.18.0.101"),
                        "198.18.0.101"), new ResourceSpec("labweb2", List.of(), "labweb2")), 2));
    }

    private Node node(NodeName n) {
        return n.equals(N1) ? nodes[0] : nodes[1];
    }

    /** Powers a node on and starts its daemon (a new generation). */
    public void start(NodeName n) {
        Node node = node(n);
        MessageAuthenticator auth = new MessageAuthenticator(node.config.authKeys());
        byte[] uuid = new byte[16];
        uuid[15] = (byte) (n.equals(N1) ? 1 : 2);
        OutboundStamper st = new OutboundStamper(n, uuid, ++generationSeed, auth, () -> "0.00 0.00 0.00 1/1 1");
        node.stamper = st;
        node.engine = new NodeEngine(node.config, n, st, n.equals(N1) ? 3 : 7, clock.nanoTime(),
                org.jheartbeat.core.protocol.SafetyRules.ALL, node.takeover);
        trace.add(at() + " " + n + " start");
    }

    /**
     * Sends {@code body} from {@code from} as if its daemon had: stamped with its own stamper (next
     * {@code seq}, its generation), delivered to the other node at the next step like any packet.
     * For messages our engine never sends itself, e.g. a type it does not know.
     */
    public void inject(NodeName from, org.jheartbeat.core.wire.HaMessage body) {
        Node node = node(from);
        handle(node, List.of(new Effect.Transmit(node.stamper.stamp(body, clock.currentTimeMillis(),
                java.util.Optional.empty()))));
    }

    /** Pulls the plug: the engine vanishes mid-flight and everything it ran stops with it. */
    public void powerOff(NodeName n) {
        Node node = node(n);
        node.engine = null;
        node.frozen = false;
        node.keepFrames = false;
        node.running.clear();
        node.pendingOps.clear();
        node.inbox.clear();
        trace.add(at() + " " + n + " power-off");
    }

    /** From now on, starts of group {@code key} on {@code n} fail and are rolled back (or succeed again: {@code false}). */
    public void failStarts(NodeName n, String key, boolean fail) {
        if (fail) {
            node(n).failingStarts.add(key);
        } else {
            node(n).failingStarts.remove(key);
        }
    }

    /**
     * From now on, when a start of group {@code key} on {@code n} fails ({@link #failStarts}), the stop
     * of its rollback fails too: part of it keeps running there, counted as the group running (or the
     * rollback succeeds again: {@code false}).
     */
    public void failRollbacks(NodeName n, String key, boolean fail) {
        if (fail) {
            node(n).failingRollbacks.add(key);
        } else {
            node(n).failingRollbacks.remove(key);
        }
    }

    /** From now on, stops of group {@code key} on {@code n} fail and it keeps running (or succeed again). */
    public void failStops(NodeName n, String key, boolean fail) {
        if (fail) {
            node(n).failingStops.add(key);
        } else {
            node(n).failingStops.remove(key);
        }
    }

    /** Operator {@code hb cleanup} on {@code n}: group index, or -1 for all. */
    public void cleanup(NodeName n, int group) {
        Node node = node(n);
        handle(node, node.engine.onCleanupRequested(group, clock.nanoTime(), clock.currentTimeMillis()));
    }

    /**
     * Monitoring on {@code n} gave up on group {@code group} (restarts used up): what the group
     * executor reports to the loop; the group's resources are still up until the machine stops it.
     */
    public void failRunning(NodeName n, int group, String detail) {
        Node node = node(n);
        trace.add(at() + " " + n + " monitor gave up on " + key(node, group));
        handle(node, node.engine.onGroupFailedRunning(group, detail, clock.nanoTime(), clock.currentTimeMillis()));
    }

    /** How many times the trace says {@code event} (e.g. "node1 started 198.18.0.101"). */
    public long count(String event) {
        return trace.stream().filter(t -> t.endsWith(event)).count();
    }

    /**
     * Freezes a node (SIGSTOP of every process): it neither sends nor receives, but what it ran keeps
     * running. Frames sent to it meanwhile are lost (a socket buffer that overflowed); see {@link #suspend}.
     */
    public void freeze(NodeName n) {
        node(n).frozen = true;
        trace.add(at() + " " + n + " frozen");
    }

    /**
     * Freezes a node as SIGSTOP does to a real daemon: as {@link #freeze}, but the frames sent to it
     * meanwhile wait in its socket buffer and are read after {@link #resume}, all at that instant.
     */
    public void suspend(NodeName n) {
        node(n).frozen = true;
        node(n).keepFrames = true;
        trace.add(at() + " " + n + " suspended");
    }

    /**
     * Thaws a node {@link #suspend}ed (SIGCONT). Its timers are overdue and the frames that waited are
     * ready at the same instant: in the daemon the loop's scheduled tick and the media threads race.
     *
     * @param timerFirst whether its first step runs the engine's timer before handing it those frames
     *                   (else the frames go first, as every step does)
     */
    public void resume(NodeName n, boolean timerFirst) {
        node(n).frozen = false;
        node(n).keepFrames = false;
        node(n).timerFirst = timerFirst;
        trace.add(at() + " " + n + " resumed (" + (timerFirst ? "timer" : "frames") + " first)");
    }

    /** Thaws a frozen node (SIGCONT). */
    public void thaw(NodeName n) {
        node(n).frozen = false;
        trace.add(at() + " " + n + " thawed");
    }

    /** The next {@code n} fencing attempts fail (UPS cable unplugged). */
    public void failFences(int n) {
        fenceFailuresLeft = n;
    }

    /** Fencing attempts so far. */
    public long fenceAttempts() {
        return fenceAttempts;
    }

    /** Orderly shutdown (SIGTERM). */
    public void shutdown(NodeName n) {
        Node node = node(n);
        handle(node, node.engine.onShutdownRequested(clock.nanoTime(), clock.currentTimeMillis()));
    }

    /** Operator standby on {@code n}. */
    public void standby(NodeName n, org.jheartbeat.core.takeover.ResourceSet set) {
        Node node = node(n);
        handle(node, node.engine.onStandbyRequested(set, clock.nanoTime(), clock.currentTimeMillis()));
    }

    /** Carries classic frames (as on a serial line) instead of netstring datagrams. */
    public TwoNodeHarness serialEncoding(boolean on) {
        serialEncoding = on;
        return this;
    }

    /** Operator takeover on {@code n} ({@code hb takeover SET}). */
    public void takeover(NodeName n, org.jheartbeat.core.takeover.ResourceSet set) {
        Node node = node(n);
        handle(node, node.engine.onTakeoverRequested(set, clock.nanoTime(), clock.currentTimeMillis()));
    }

    /** Drops this share of packets in both directions (seeded, deterministic): a lossy link. */
    public void loss(int percent) {
        lossPercent = percent;
        trace.add(at() + " loss " + percent + "%");
    }

    /** Packets dropped by {@link #loss} so far. */
    public long dropped() {
        return dropped;
    }

    /** Cuts or restores the only link between the nodes. */
    public void link(boolean up) {
        linkUp = up;
        trace.add(at() + " link " + (up ? "up" : "down"));
    }

    /** Runs the two nodes for {@code ms} of fake time in 10 ms steps. */
    public void run(long ms) {
        for (long t = 0; t < ms; t += 10) {
            clock.advanceMillis(10);
            for (Node n : nodes) {
                if (n.engine == null || n.frozen) {
                    if (n.engine == null || !n.keepFrames) {
                        n.inbox.clear();
                    }
                    continue;
                }
                if (n.timerFirst) {
                    n.timerFirst = false;
                    handle(n, n.engine.onTimer(clock.nanoTime(), clock.currentTimeMillis()));
                }
                if (n.fenceDueNanos <= clock.nanoTime()) {
                    n.fenceDueNanos = Long.MAX_VALUE;
                    fenceAttempts++;
                    boolean ok = fenceFailuresLeft == 0;
                    if (ok) {
                        powerOff(n == nodes[0] ? N2 : N1);
                    } else {
                        fenceFailuresLeft--;
                    }
                    handle(n, n.engine.onFenceDone(ok, ok ? "OK" : "RESETFAIL", clock.nanoTime(),
                            clock.currentTimeMillis()));
                }
                while (!n.pendingOps.isEmpty() && n.pendingOps.peekFirst()[0] <= clock.nanoTime()) {
                    long[] op = n.pendingOps.removeFirst();
                    int g = (int) op[1];
                    boolean start = op[2] == 1;
                    boolean fails = (start ? n.failingStarts : n.failingStops).contains(key(n, g));
                    boolean leftRunning = start && fails && n.failingRollbacks.contains(key(n, g));
                    if (leftRunning) {
                        n.running.add(g);
                        trace.add(at() + " " + n.name + " failed to start " + key(n, g) + ", rollback left it running");
                    } else if (fails) {
                        trace.add(at() + " " + n.name + (start ? " failed to start " : " failed to stop ") + key(n, g));
                    } else {
                        if (start) {
                            n.running.add(g);
                        } else {
                            n.running.remove(g);
                        }
                        trace.add(at() + " " + n.name + (start ? " started " : " stopped ") + key(n, g));
                    }
                    checkNoDoubleRun();
                    String detail = !fails ? "" : "resource labweb failed (test)"
                            + (leftRunning ? "; Resource STOP failure during rollback: [IPaddr]" : "");
                    handle(n, start ? n.engine.onGroupStarted(g, !fails ? StartOutcome.STARTED : leftRunning
                            ? StartOutcome.FAILED_STILL_RUNNING : StartOutcome.FAILED_STOPPED, detail, clock.nanoTime(),
                            clock.currentTimeMillis()) : n.engine.onGroupDone(g, false, !fails, detail, clock.nanoTime(),
                            clock.currentTimeMillis()));
                }
                while (!n.inbox.isEmpty() && n.engine != null) {
                    handle(n, n.engine.onFrame("eth1", "198.18.1.9:694", n.inbox.removeFirst(), clock.nanoTime(),
                            clock.currentTimeMillis()));
                }
                if (n.engine != null && n.pingsAnswer && clock.nanoTime() % 500_000_000L == 0) {
                    // the ICMP edge probes every keepalive (500 ms): each ping node answers
                    for (var p : n.config.ping().nodes()) {
                        handle(n, n.engine.onPingAnswered(p.name(), clock.nanoTime(), clock.currentTimeMillis()));
                    }
                }
                if (n.engine != null) {
                    handle(n, n.engine.onTimer(clock.nanoTime(), clock.currentTimeMillis()));
                }
            }
        }
    }

    /**
     * Makes {@code n} look like a Heartbeat 3.0.6 node to its peer from now on: its jheartbeat-only messages
     * ({@code jhb-config}, {@code jhb-maint}, …: types {@code jhb-*}) never reach the peer, as a real
     * Heartbeat never sends them. Call before {@link #start}.
     */
    public void asHeartbeat306(NodeName n) {
        node(n).heartbeat306 = true;
    }

    /**
     * Starts recording every frame {@code n} sends (as it would go on the line, whether or not the
     * link carries it), for {@link #replay}: frames from before, as a line that held them would
     * deliver them late.
     */
    public void capture(NodeName n) {
        node(n).captured = new ArrayList<>();
    }

    /** Stops recording {@code n}'s frames and returns them, oldest first. */
    public List<byte[]> captured(NodeName n) {
        List<byte[]> out = node(n).captured == null ? List.of() : List.copyOf(node(n).captured);
        node(n).captured = null;
        return out;
    }

    /** Delivers {@code frames} to {@code to} at the next step, ahead of anything sent since. */
    public void replay(NodeName to, List<byte[]> frames) {
        Node node = node(to);
        for (int i = frames.size() - 1; i >= 0; i--) {
            node.inbox.addFirst(frames.get(i));
        }
        trace.add(at() + " " + frames.size() + " old frames replayed to " + to);
    }

    private void handle(Node n, List<Effect> effects) {
        for (Effect e : effects) {
            if (e instanceof Effect.Transmit t) {
                if (n.captured != null) {
                    n.captured.add(serialEncoding ? t.packet().classic() : t.packet().netstring());
                }
                Node other = n == nodes[0] ? nodes[1] : nodes[0];
                if (n.heartbeat306 && new String(t.packet().classic(), java.nio.charset.StandardCharsets.ISO_8859_1)
                        .contains("\nt=jhb-")) {
                    trace.add(at() + " " + n.name + " (as Heartbeat 3.0.6) does not send a jhb- message");
                } else if (lossPercent > 0 && lossRandom.nextInt(100) < lossPercent) {
                    dropped++;
                } else if (linkUp && other.engine != null) {
                    other.inbox.addLast(serialEncoding ? t.packet().classic() : t.packet().netstring());
                }
            } else if (e instanceof Effect.PeerLost p) {
                ops.add(n.name + " peer-lost " + p.node() + " " + p.how());
            } else if (e instanceof Effect.StartGroup s) {
                ops.add(n.name + " start " + key(n, s.group()) + " " + s.reason());
                long due = lastDue(n) + groupOpMillis * 1_000_000L;
                n.pendingOps.addLast(new long[] {due, s.group(), 1});
            } else if (e instanceof Effect.StopGroup s) {
                ops.add(n.name + " stop " + key(n, s.group()) + " " + s.reason());
                long due = lastDue(n) + groupOpMillis * 1_000_000L;
                n.pendingOps.addLast(new long[] {due, s.group(), 0});
            } else if (e instanceof Effect.SelfFence sf) {
                trace.add(at() + " " + n.name + " self-fences (" + sf.reason() + ")");
                powerOff(n.name);
                return;
            } else if (e instanceof Effect.FencePeer f) {
                n.fenceDueNanos = clock.nanoTime() + 500_000_000L; // the UPS takes 0.5 s
                trace.add(at() + " " + n.name + " fences " + f.node());
            } else if (e instanceof Effect.LogLine l) {
                logs.add(at() + " " + n.name + " " + l.level() + ": " + l.text());
            } else if (e instanceof Effect.Exit) {
                trace.add(at() + " " + n.name + " exit");
                n.engine = null;
            } else if (e instanceof Effect.PersistMaintenance pm) {
                persistedMaintenance.put(n.name, pm.setting());
            } else if (e instanceof Effect.ProbeForPeer pp) {
                trace.add(at() + " " + n.name + " probes for its peer");
                handle(n, n.engine.onProbedForPeer(pp.request(), runningIndices(n), Set.of(),
                        clock.currentTimeMillis()));
            } else if (e instanceof Effect.PeerProbed pp) {
                peerProbes.put(n.name + " " + pp.request(), Set.copyOf(pp.runs()));
            } else if (e instanceof Effect.ProbeThenApply pa) {
                Set<Integer> here = new java.util.TreeSet<>(runningIndices(n));
                here.retainAll(pa.leaving());
                handle(n, n.engine.onMaintenanceApplied(pa.setting(), pa.leaving(), here, Set.of(), pa.peerRuns(),
                        false, clock.nanoTime(), clock.currentTimeMillis()));
            }
        }
    }

    private final Map<NodeName, org.jheartbeat.core.takeover.Maintenance> persistedMaintenance = new java.util.HashMap<>();
    private final Map<String, Set<String>> peerProbes = new java.util.HashMap<>();

    private Set<Integer> runningIndices(Node n) {
        return new java.util.TreeSet<>(n.running);
    }

    /**
     * Applies maintenance setting {@code next} on {@code n} as an operator's {@code hb maintenance} does
     * once it knows what runs: {@code probed} groups leave maintenance with what runs on each node as
     * the harness sees it (the peer's part as its answer to {@link #probePeer} said, if asked).
     */
    public void maintenance(NodeName n, org.jheartbeat.core.takeover.Maintenance next, Set<Integer> probed,
                            Set<String> peerRuns) {
        Node node = node(n);
        Set<Integer> here = new java.util.TreeSet<>(runningIndices(node));
        here.retainAll(probed);
        Set<Integer> there = new java.util.TreeSet<>();
        for (int i = 0; i < node.config.resourceGroups().size(); i++) {
            if (peerRuns.contains(key(node, i))) {
                there.add(i);
            }
        }
        trace.add(at() + " " + n + " maintenance " + next.describe());
        handle(node, node.engine.onMaintenanceApplied(next, probed, here, Set.of(), there, true, clock.nanoTime(),
                clock.currentTimeMillis()));
    }

    /** {@code n} asks its peer to probe (jhb-maint probe {@code request}); the answer shows in {@link #peerProbe}. */
    public void probePeer(NodeName n, long request) {
        Node node = node(n);
        handle(node, node.engine.onPeerProbeRequested(request, clock.currentTimeMillis()));
    }

    /** The peer's answer to {@code n}'s probe {@code request}, or null before it came. */
    public Set<String> peerProbe(NodeName n, long request) {
        return peerProbes.get(n + " " + request);
    }

    /** The maintenance setting {@code n} last asked to keep in its state directory, or null. */
    public org.jheartbeat.core.takeover.Maintenance persistedMaintenance(NodeName n) {
        return persistedMaintenance.get(n);
    }

    /**
     * Starts {@code n}'s daemon as a restart in maintenance does: the setting it kept, and the groups
     * still running on it (what the start-up probe finds) marked running.
     */
    public void startWithState(NodeName n) {
        start(n);
        Node node = node(n);
        org.jheartbeat.core.takeover.Maintenance m = persistedMaintenance.get(n);
        if (m != null) {
            node.engine.machine().maintenancePolicy().atStartup(m);
            for (int i : runningIndices(node)) {
                if (m.covers(n, key(node, i))) {
                    node.engine.machine().maintenancePolicy().runningAtStartup(i);
                }
            }
        }
    }

    /** Stops {@code n}'s daemon without stopping what it runs (the services run on, as in maintenance). */
    public void killDaemonKeepServices(NodeName n) {
        Node node = node(n);
        node.engine = null;
        node.pendingOps.clear();
        node.inbox.clear();
        trace.add(at() + " " + n + " daemon gone, services left running");
    }

    private long lastDue(Node n) {
        return n.pendingOps.isEmpty() ? clock.nanoTime() : Math.max(clock.nanoTime(), n.pendingOps.peekLast()[0]);
    }

    private void checkNoDoubleRun() {
        Set<String> other = runningOn(N2);
        for (String k : runningOn(N1)) {
            if (other.contains(k) && doubleRun == null) {
                doubleRun = at() + " group " + k + " runs on both nodes";
            }
        }
    }

    private static String key(Node n, int g) {
        return n.config.resourceGroups().get(g).key();
    }

    private String at() {
        return String.format("%7.2f", (clock.nanoTime() - 1_000_000_000L) / 1e9);
    }

    /**
     * A configuration reload on {@code n} ({@code hb reload}), as the daemon's loop applies it: the
     * plan of {@link org.jheartbeat.core.config.ConfigReload} from the node's running configuration to
     * {@code next}; a removed group that runs is stopped at once (traced {@code stopped KEY
     * (removed)}); the engine takes the applied configuration. Groups must not be starting or
     * stopping on {@code n}.
     *
     * @return the plan's changes
     */
    public List<org.jheartbeat.core.config.ConfigReload.Change> reload(NodeName n, ClusterConfig next) {
        Node node = node(n);
        if (!node.pendingOps.isEmpty()) {
            throw new IllegalStateException(n + " has group operations in flight");
        }
        var plan = org.jheartbeat.core.config.ConfigReload.plan(node.config, next);
        ClusterConfig applied = plan.applied();
        Set<Integer> running = new TreeSet<>();
        List<String> removed = new ArrayList<>();
        for (int g : node.running) {
            String k = key(node, g);
            int j = -1;
            for (int i = 0; i < applied.resourceGroups().size(); i++) {
                if (applied.resourceGroups().get(i).key().equals(k)) {
                    j = i;
                }
            }
            if (j >= 0) {
                running.add(j);
            } else {
                ops.add(n + " stop " + k + " REMOVED");
                trace.add(at() + " " + n + " stopped " + k + " (removed)");
                removed.add(k);
            }
        }
        node.running.clear();
        node.running.addAll(running);
        node.config = applied;
        trace.add(at() + " " + n + " reload");
        handle(node, node.engine.onReload(applied, clock.nanoTime(), clock.currentTimeMillis()));
        for (String k : removed) { // as the daemon's loop: the end of each such stop goes to the engine
            handle(node, node.engine.onRemovedGroupStopped(k, true, clock.nanoTime(), clock.currentTimeMillis()));
        }
        return plan.changes();
    }

    /** Which groups (by key) run on {@code n} now. */
    public Set<String> runningOn(NodeName n) {
        Set<String> s = new TreeSet<>();
        Node node = node(n);
        node.running.forEach(g -> s.add(key(node, g)));
        return s;
    }

    /** The engine of {@code n}, or null when powered off. */
    public NodeEngine engine(NodeName n) {
        return node(n).engine;
    }

    /** Every start, stop, power event so far, with fake-time stamps in s. */
    public List<String> trace() {
        return List.copyOf(trace);
    }

    /**
     * Every group operation and peer loss the engines asked for, in order, without time stamps:
     * {@code node1 start KEY REASON}, {@code node1 stop KEY REASON}, {@code node1 peer-lost node2 died}.
     */
    public List<String> ops() {
        return List.copyOf(ops);
    }

    /** Every log line of both engines. */
    public List<String> logs() {
        return List.copyOf(logs);
    }

    /** The first moment a group ran on both nodes, or null if never. */
    public String doubleRun() {
        return doubleRun;
    }

    /** Clears the double-run record (after a deliberate split brain). */
    public void forgetDoubleRun() {
        doubleRun = null;
    }

    /**
     * Whether {@code n}'s ping nodes (its {@code config.ping()}) answer its echo requests, every 500 ms;
     * false models a cut LAN uplink. True at start.
     */
    public void pingAnswers(NodeName n, boolean answer) {
        node(n).pingsAnswer = answer;
        trace.add(at() + " " + n + (answer ? " ping nodes answer" : " ping nodes cut"));
    }

    /** The shared clock. */
    public FakeClock clock() {
        return clock;
    }

    /** Unmodifiable view of both nodes' running groups, for messages. */
    public Map<String, Set<String>> placement() {
        return Map.of("node1", runningOn(N1), "node2", runningOn(N2));
    }
}
