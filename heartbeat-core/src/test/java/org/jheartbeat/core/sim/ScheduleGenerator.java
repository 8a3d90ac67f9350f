package org.jheartbeat.core.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Draws a schedule from a seed: the cluster ({@link SimSetup#draw}) and 2 to 10 faults and operator
 * commands between 2 s and 30 s, each window over by 36 s, so that a schedule of {@link #LENGTH_MILLIS}
 * ends with at least 14 s of calm in which the liveness invariants bite. Cuts, freezes and kills last
 * from a fifth of deadtime to three deadtimes: around the edge where a node is declared dead.
 */
final class ScheduleGenerator {
    /** Simulated length of one schedule, ms. */
    static final long LENGTH_MILLIS = 50_000;
    private static final long FIRST_MILLIS = 2_000;
    private static final long LAST_MILLIS = 30_000;
    private static final long WINDOWS_END_MILLIS = 36_000;

    /** One schedule: the seed it came from, the cluster and the events. */
    record Schedule(long seed, SimSetup setup, List<SimEvent> events) {
        Schedule withEvents(List<SimEvent> e) {
            return new Schedule(seed, setup, e);
        }

        Schedule withSetup(SimSetup s) {
            return new Schedule(seed, s, events);
        }
    }

    private ScheduleGenerator() {
    }

    static Schedule generate(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        SimSetup setup = SimSetup.draw(r);
        int groups = setup.groupKeys().size();
        List<SimEvent> events = new ArrayList<>();
        int count = 2 + r.nextInt(9);
        for (int k = 0; k < count; k++) {
            long at = FIRST_MILLIS + r.nextLong(LAST_MILLIS - FIRST_MILLIS);
            events.addAll(draw(r, at, setup, groups));
        }
        events.sort(Comparator.comparingLong(SimEvent::atMillis));
        return new Schedule(seed, setup, events);
    }

    private static List<SimEvent> draw(SplittableRandom r, long at, SimSetup setup, int groups) {
        int node = r.nextInt(2);
        int link = r.nextInt(100) < 40 ? 2 : r.nextInt(2);
        int dir = r.nextInt(100) < 50 ? 2 : r.nextInt(2);
        int group = r.nextInt(groups);
        int pick = r.nextInt(100);
        SimEvent.Kind kind;
        int param = 0;
        long max = WINDOWS_END_MILLIS - at;
        long dead = setup.timing().deadtime().toMillis();
        long aroundDeadtime = dead / 5 + r.nextLong(3 * dead);
        long duration;
        if (pick < 8) {
            kind = SimEvent.Kind.LOSS;
            param = 10 + r.nextInt(91);
            duration = 500 + r.nextLong(10_000);
        } else if (pick < 13) {
            kind = SimEvent.Kind.DELAY;
            param = 50 + r.nextInt(4000);
            duration = 500 + r.nextLong(10_000);
        } else if (pick < 17) {
            kind = SimEvent.Kind.DUPLICATE;
            param = 10 + r.nextInt(91);
            duration = 500 + r.nextLong(10_000);
        } else if (pick < 21) {
            kind = SimEvent.Kind.CORRUPT;
            param = 10 + r.nextInt(91);
            duration = 500 + r.nextLong(10_000);
        } else if (pick < 26) {
            kind = SimEvent.Kind.REPLAY;
            param = 1 + r.nextInt(20);
            duration = 0;
        } else if (pick < 38) {
            kind = SimEvent.Kind.CUT;
            duration = aroundDeadtime;
        } else if (pick < 42) {
            kind = SimEvent.Kind.FLAP;
            param = 100 + r.nextInt(3000);
            duration = 1000 + r.nextLong(10_000);
        } else if (pick < 50) {
            kind = SimEvent.Kind.FREEZE;
            duration = aroundDeadtime;
        } else if (pick < 55) {
            kind = SimEvent.Kind.KILL;
            duration = aroundDeadtime;
        } else if (pick < 61) {
            kind = SimEvent.Kind.POWER;
            duration = 1000 + r.nextLong(15_000);
        } else if (pick < 64) {
            kind = SimEvent.Kind.SHUTDOWN;
            duration = 2000 + r.nextLong(10_000);
        } else if (pick < 68) {
            kind = SimEvent.Kind.FENCE;
            param = r.nextInt(SimEvent.FenceMode.values().length);
            duration = 1000 + r.nextLong(20_000);
        } else if (pick < 76) {
            kind = SimEvent.Kind.AGENT;
            param = r.nextInt(SimEvent.AgentFault.values().length);
            duration = 500 + r.nextLong(15_000);
        } else if (pick < 80) {
            return List.of(new SimEvent(at, SimEvent.Kind.MONITOR, node, group, 0, 0, 0));
        } else if (pick < 84) {
            return List.of(new SimEvent(at, SimEvent.Kind.STANDBY, node, 0, 0, 1 + r.nextInt(3), 0));
        } else if (pick < 87) {
            return List.of(new SimEvent(at, SimEvent.Kind.TAKEOVER, node, 0, 0, 1 + r.nextInt(3), 0));
        } else if (pick < 89) {
            return List.of(new SimEvent(at, SimEvent.Kind.FAILBACK, node, 0, 0, 0, 0));
        } else if (pick < 92) {
            return List.of(new SimEvent(at, SimEvent.Kind.CLEANUP, node, r.nextInt(3) == 0 ? -1 : group, 0, 0, 0));
        } else if (pick < 96) {
            // on, and off again later from either node (a maintenance left on forever stops nothing)
            int scope = r.nextInt(3);
            long off = Math.min(at + 500 + r.nextLong(10_000), WINDOWS_END_MILLIS);
            return List.of(new SimEvent(at, SimEvent.Kind.MAINTENANCE, node, group, 0, 2 * scope, 0),
                    new SimEvent(off, SimEvent.Kind.MAINTENANCE, scope == 1 ? node : r.nextInt(2), group, 0,
                            2 * scope + 1, 0));
        } else if (pick < 98) {
            int variant = 1 + r.nextInt(SimSetup.VARIANTS - 1);
            return List.of(new SimEvent(at, SimEvent.Kind.RELOAD, node, 0, 0, variant,
                    Math.min(max, 1000 + r.nextLong(15_000))));
        } else {
            return List.of(new SimEvent(at, SimEvent.Kind.WALL_JUMP, node, 0, 0,
                    r.nextBoolean() ? 3600 : -3600 + r.nextInt(3590), 0));
        }
        return List.of(new SimEvent(at, kind, node, kind == SimEvent.Kind.AGENT ? group : link, dir, param,
                Math.min(max, duration)));
    }
}
