package org.jheartbeat.core.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.TakeoverSettings;

/**
 * One simulated machine: its power, its daemon (a real {@link NodeEngine} driven as {@code ClusterLoop}
 * drives it: a timer at the engine's next deadline, at most 100 ms apart; frames and results as they
 * come), what it keeps on disk (generation, maintenance setting, haresources variant) and what really
 * runs on it ({@link SimAgents}). A frozen daemon (SIGSTOP) does nothing; what reaches it waits in
 * {@link #backlog} and runs at once, with the overdue timer, when it resumes.
 */
final class SimNode {
    private static final long MAX_SLEEP_NANOS = 100_000_000L;

    final Simulator sim;
    final int index;
    final NodeName name;
    final SplittableRandom random;
    final SimAgents agents;
    boolean powered;
    boolean frozen;
    NodeEngine engine;
    /** The configuration the daemon runs (after reloads), and the haresources variant on disk. */
    ClusterConfig config;
    int variant;
    /** Bumped whenever the daemon ends or the power goes: tasks of the old daemon are dropped. */
    int epoch;
    long generation;
    /** What the state directory keeps ({@code hb maintenance}); survives restarts and power cuts. */
    Maintenance persisted = Maintenance.NONE;
    /** What the state directory keeps of the groups the daemon may run ({@code groups}); survives restarts. */
    List<org.jheartbeat.core.config.ResourceGroupDecl> mayRun = List.of();
    long wallOffsetMillis;
    /** When this node's engine last sent a status beat, ns (invariant d). */
    long lastBeatNanos;
    /** Work for the daemon that arrived while it was frozen, in order. */
    final List<Runnable> backlog = new ArrayList<>();
    /** The last freeze longer than deadtime less a keepalive: when it began and ended, ns (-1: none). */
    long longFreezeStart = -1;
    long longFreezeEnd = -1;
    private long frozenAt;
    /** When this daemon last applied a reload, ns (-1: never). */
    long reloadedAt = -1;
    /** When the daemon last started (simulated ns), or -1. */
    long daemonStartedAt = -1;
    /** When the engine last declared its peer dead, ns. */
    long peerDeclaredDeadAt = -1;
    /** When an operator's {@code hb maintenance off} was last applied here, ns. */
    long maintenanceOffAt = -1;
    private boolean tickMissed;
    private long tickToken;

    SimNode(Simulator sim, int index, SplittableRandom random) {
        this.sim = sim;
        this.index = index;
        this.name = index == 0 ? SimSetup.N1 : SimSetup.N2;
        this.random = random;
        this.agents = new SimAgents(this, random.split());
    }

    SimNode peer() {
        return sim.nodes[1 - index];
    }

    boolean daemonRunning() {
        return powered && engine != null;
    }

    /** Running and not frozen: sends beats and reads frames. */
    boolean live() {
        return powered && engine != null && !frozen;
    }

    long wall() {
        return sim.wallMillis() + wallOffsetMillis;
    }

    /** Power on: the machine boots and its daemon starts {@code bootNanos} later. */
    void powerOn(long bootNanos) {
        if (powered) {
            return;
        }
        powered = true;
        epoch++;
        sim.trace(this, "power on");
        sim.at(sim.now + bootNanos, this, this::startDaemon);
    }

    /** Power cut: the daemon vanishes mid-flight and everything it ran stops with it. */
    void powerOff(String why) {
        if (!powered) {
            return;
        }
        sim.trace(this, "power off (" + why + ")");
        powered = false;
        endDaemon();
        agents.powerLost();
    }

    /** kill -9: the daemon is gone, what it ran keeps running. */
    void killDaemon() {
        if (engine == null) {
            return;
        }
        sim.trace(this, "daemon killed");
        endDaemon();
    }

    private void endDaemon() {
        sim.media.senderGone(index);
        engine = null;
        frozen = false;
        backlog.clear();
        epoch++;
        agents.daemonGone();
        sim.operator.daemonGone(this);
    }

    /**
     * The daemon starts as {@code Daemon.run} starts it: a new generation, the engine, the maintenance
     * setting kept on disk, then the start-up probe ({@code MaintenanceStartup.probeOrRelease}): groups
     * in maintenance found running are kept as running, the others found running are released (a
     * failed release leaves them BLOCKED), and before that the groups it may have run that haresources
     * dropped meanwhile (the state directory's {@code groups}) are released. Then the timer.
     */
    void startDaemon() {
        if (!powered || engine != null) {
            return;
        }
        daemonStartedAt = sim.now;
        config = sim.variantConfig(variant);
        generation = generation == 0 ? wall() / 1000 + 1 : generation + 1;
        byte[] uuid = new byte[16];
        uuid[15] = (byte) (index + 1);
        OutboundStamper stamper = new OutboundStamper(name, uuid, generation,
                new MessageAuthenticator(config.authKeys()), () -> "0.00 0.00 0.00 1/1 1");
        engine = new NodeEngine(config, name, stamper, random.nextInt(10), sim.now, sim.setup.rules(),
                TakeoverSettings.DEFAULTS.withSelfFenceOnStopFailure(sim.setup.selfFence())
                        .withFenceDelayNanos(sim.setup.fenceDelayMillis() * 1_000_000L));
        engine.machine().maintenancePolicy().atStartup(persisted);
        releaseFormerGroups();
        agents.configChanged(config);
        for (int i = 0; i < config.resourceGroups().size(); i++) {
            String key = config.resourceGroups().get(i).key();
            if (persisted.covers(name, key)) {
                if (agents.runsAny(i)) {
                    engine.machine().maintenancePolicy().runningAtStartup(i);
                }
            } else if (agents.runsAny(i) && !agents.releaseAtStartup(i)) {
                engine.machine().blockedAtStartup(i, "found running at start-up and could not be stopped");
            }
        }
        sim.invariants.daemonStarted(this);
        sim.trace(this, "daemon started, generation " + generation + ", haresources variant " + variant);
        lastBeatNanos = sim.now;
        tickMissed = false;
        scheduleTick(sim.now);
    }

    /**
     * As {@code MaintenanceStartup.probeOrRelease} with the state directory's {@code groups}: a group the
     * daemon may have run that the haresources on disk no longer defines is released, or left running when
     * in maintenance or when its release fails (reported BLOCKED); the file then holds the configuration's
     * groups and those left.
     */
    private void releaseFormerGroups() {
        java.util.Set<String> keys = new java.util.HashSet<>();
        config.resourceGroups().forEach(g -> keys.add(g.key()));
        List<org.jheartbeat.core.config.ResourceGroupDecl> next = new ArrayList<>(config.resourceGroups());
        for (var g : mayRun) {
            int[] res = sim.resourceIds(g);
            boolean runs = false;
            for (int r : res) {
                runs |= agents.running[r];
            }
            if (keys.contains(g.key()) || !runs) {
                continue;
            }
            if (persisted.covers(name, g.key())) {
                sim.trace(this, g.key() + " no longer in haresources, running, in maintenance: left as it is");
                engine.machine().reload().leftUnmanaged(g.key(), org.jheartbeat.core.takeover.GroupState.RUNNING);
                next.add(g);
            } else if (!agents.releaseAtStartup(sim.groupKeys.indexOf(g.key()), res)) {
                sim.trace(this, g.key() + " no longer in haresources, running, could not be stopped: BLOCKED");
                engine.machine().reload().leftUnmanaged(g.key(), org.jheartbeat.core.takeover.GroupState.BLOCKED);
                next.add(g);
            } else {
                sim.trace(this, g.key() + " no longer in haresources: released at start-up");
            }
        }
        mayRun = List.copyOf(next);
    }

    private void scheduleTick(long at) {
        long token = ++tickToken;
        sim.at(at, this, () -> {
            if (token == tickToken) {
                tick();
            }
        });
    }

    private void tick() {
        if (engine == null) {
            return;
        }
        if (frozen) {
            tickMissed = true;
            return;
        }
        execute(engine.onTimer(sim.now, wall()));
        if (engine != null) {
            long sleep = Math.max(1_000_000L, Math.min(MAX_SLEEP_NANOS, engine.nextWakeupNanos() - sim.now));
            scheduleTick(sim.now + sleep);
        }
    }

    /** Runs {@code work} on the daemon now, or when it resumes if it is frozen. */
    void daemonDo(Runnable work) {
        if (engine == null) {
            return;
        }
        if (frozen) {
            backlog.add(work);
        } else {
            work.run();
        }
    }

    void freeze() {
        if (engine != null && !frozen) {
            frozen = true;
            frozenAt = sim.now;
            sim.trace(this, "frozen (SIGSTOP)");
        }
    }

    /**
     * SIGCONT: what queued up runs at once, in order, and the overdue timer fires among it (before, between
     * or after the frames, as the threads happen to wake: drawn at random).
     */
    void resume() {
        if (!frozen) {
            return;
        }
        frozen = false;
        if (sim.now - frozenAt > sim.setup.timing().deadtime().toNanos() - sim.setup.timing().keepalive().toNanos()) {
            longFreezeStart = frozenAt;
            longFreezeEnd = sim.now;
        }
        List<Runnable> work = new ArrayList<>(backlog);
        backlog.clear();
        int tickAt = tickMissed ? random.nextInt(work.size() + 1) : -1;
        sim.trace(this, "resumed (SIGCONT) with " + work.size() + " queued item(s)"
                + (tickAt >= 0 ? ", timer overdue, run " + (tickAt == 0 ? "first" : "after item " + tickAt) : ""));
        lastBeatNanos = sim.now;
        int epochNow = epoch;
        for (int i = 0; i <= work.size(); i++) {
            if (epoch != epochNow || engine == null) {
                return;
            }
            if (i == tickAt) {
                tickMissed = false;
                tick();
            }
            if (i < work.size() && epoch == epochNow && !frozen) {
                work.get(i).run();
            }
        }
    }

    /** A frame arrived on link {@code link}. */
    void receive(int link, byte[] frame) {
        if (sim.tracing() && link == 0) {
            traceFrame(frame);
        }
        daemonDo(() -> execute(engine.onFrame(SimMedia.LINK_NAMES[link], SimMedia.SOURCES[1 - index][link], frame,
                sim.now, wall())));
    }

    /** Traces what a frame on eth1 says, leaving out beats and acknowledgements (tracing only). */
    private void traceFrame(byte[] frame) {
        try {
            var m = org.jheartbeat.core.wire.WireCodec.decode(frame, new MessageAuthenticator(config.authKeys()));
            String t = m.type().orElse("?");
            if (!t.equals("status") && !t.equals("ACK") && !t.equals("NS_ackmsg")) {
                String s = m.toString();
                int cut = s.indexOf(", (1)srcuuid");
                sim.trace(this, "receives " + (cut > 0 ? s.substring(0, cut) + "]" : s));
            }
        } catch (org.jheartbeat.core.wire.WireFormatException e) {
            sim.trace(this, "receives a bad frame: " + e.getMessage());
        }
    }

    /** Executes the engine's effects as {@code ClusterLoop.execute} does. */
    void execute(List<Effect> effects) {
        for (Effect ef : effects) {
            if (engine == null) {
                return; // exited or reset itself: the rest never happens
            }
            if (ef instanceof Effect.Transmit t) {
                if (SimChecks.isStatus(t.packet().classic())) {
                    lastBeatNanos = sim.now;
                }
                sim.transmit(this, t.packet(), t.traffic());
            } else if (ef instanceof Effect.LogLine l) {
                if (l.text().endsWith(": is dead")) {
                    peerDeclaredDeadAt = sim.now;
                }
                if (sim.tracing()) {
                    sim.trace(this, l.level() + ": " + l.text());
                }
            } else if (ef instanceof Effect.StartGroup s) {
                sim.invariants.startIssued(this, s.group(), s.reason());
                agents.submit(s.group(), true, s.reason(), true);
            } else if (ef instanceof Effect.StopGroup s) {
                sim.invariants.stopIssued(this, s.group(), s.reason().name());
                agents.submit(s.group(), false, s.reason(), true);
            } else if (ef instanceof Effect.SelfFence sf) {
                sim.trace(this, "resets itself (" + sf.reason() + ")");
                sim.stats.selfFences++;
                powerOff("self-fence");
                sim.at(sim.now + sim.setup.rebootMillis() * 1_000_000L, null, () -> powerOn(0));
                return;
            } else if (ef instanceof Effect.FencePeer f) {
                sim.fence(this);
            } else if (ef instanceof Effect.Exit) {
                sim.trace(this, "daemon exited");
                endDaemon();
                return;
            } else if (ef instanceof Effect.PersistMaintenance pm) {
                persisted = pm.setting();
            } else if (ef instanceof Effect.ProbeForPeer pp) {
                execute(engine.onProbedForPeer(pp.request(), agents.probe(true, null), agents.probe(false, null),
                        wall()));
            } else if (ef instanceof Effect.PeerProbed pp) {
                sim.operator.peerProbed(this, pp.request(), pp.runs());
            } else if (ef instanceof Effect.ProbeThenApply pa) {
                execute(engine.onMaintenanceApplied(pa.setting(), pa.leaving(), agents.probe(true, pa.leaving()),
                        agents.probe(false, pa.leaving()), pa.peerRuns(), false, sim.now, wall()));
            }
        }
    }
}
