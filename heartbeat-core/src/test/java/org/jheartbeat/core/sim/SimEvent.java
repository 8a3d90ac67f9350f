package org.jheartbeat.core.sim;

import java.util.Locale;

/**
 * One fault or operator command of a schedule, at a simulated time. Window faults (loss, cuts, a
 * freeze, a power cut...) last {@code durationMillis} and are undone at their end; the shrinker drops
 * events and shortens durations. Which fields matter depends on the kind ({@link #describe()}).
 *
 * @param atMillis       when, in ms of simulated time since the schedule began
 * @param kind           what
 * @param node           the node it concerns (0: node1, 1: node2), where it concerns one
 * @param target         a link (0: eth1, 1: the serial line, 2: both) or a group (index into
 *                       {@link SimSetup#groupKeys()}), by kind
 * @param dir            for link faults, the direction: 0 node1→node2, 1 node2→node1, 2 both
 * @param param          a percentage, a delay in ms, a count, a mode, a set or a variant, by kind
 * @param durationMillis how long a window fault lasts, in ms (0 for instant events)
 */
public record SimEvent(long atMillis, Kind kind, int node, int target, int dir, int param, long durationMillis) {

    /** What an event does. */
    public enum Kind {
        /** Drops {@code param} % of frames on {@code target}/{@code dir}. */
        LOSS(true),
        /** Delays frames by up to {@code param} ms (random per frame: UDP frames then arrive out of order). */
        DELAY(true),
        /** Delivers {@code param} % of frames twice. */
        DUPLICATE(true),
        /** Flips a byte in {@code param} % of frames (authentication must reject them). */
        CORRUPT(true),
        /** Delivers {@code param} earlier frames of {@code target}/{@code dir} again, now (any generation). */
        REPLAY(false),
        /** Cuts {@code target}/{@code dir}: one-way, one link, or every link (a full partition). */
        CUT(true),
        /** Cuts and restores {@code target}/{@code dir} every {@code param} ms. */
        FLAP(true),
        /** SIGSTOP of the node's daemon; on resume its queued frames and timers run all at once. */
        FREEZE(true),
        /** kill -9 of the daemon; services keep running; restarted after the duration. */
        KILL(true),
        /** Power cut; everything it ran stops; powered on after the duration. */
        POWER(true),
        /** Orderly stop ({@code SIGTERM}: groups released); started again after the duration. */
        SHUTDOWN(true),
        /** The fencing device of {@code node} behaves as {@link FenceMode} {@code param} for the duration. */
        FENCE(true),
        /** Agents of group {@code target} on {@code node} misbehave as {@link AgentFault} {@code param}. */
        AGENT(true),
        /** Monitoring of group {@code target} on {@code node} finds a resource dead and gives up. */
        MONITOR(false),
        /** Operator {@code hb standby SET} on {@code node} ({@code param}: ResourceSet ordinal). */
        STANDBY(false),
        /** Operator {@code hb takeover SET} on {@code node}. */
        TAKEOVER(false),
        /** Operator {@code hb failback} on {@code node} (a standby of its foreign groups). */
        FAILBACK(false),
        /** Operator {@code hb cleanup} on {@code node}: group {@code target}, or every group when -1. */
        CLEANUP(false),
        /** Operator {@code hb maintenance}: {@code param} 0 cluster on, 1 off, 2 node on, 3 off, 4 group on, 5 off. */
        MAINTENANCE(false),
        /** Operator {@code hb reload} on {@code node} with haresources variant {@code param}; back to the base after the duration (0: never). */
        RELOAD(false),
        /** The node's wall clock jumps by {@code param} s (NTP step, a VM restored): monotonic time does not. */
        WALL_JUMP(false);

        private final boolean window;

        Kind(boolean window) {
            this.window = window;
        }

        /** Whether it lasts for a duration and is undone at its end. */
        public boolean window() {
            return window;
        }
    }

    /** How a fencing device behaves while a {@link Kind#FENCE} window lasts (outside: it works at once). */
    public enum FenceMode {
        /** Powers the peer off at once but confirms it only seconds later. */
        CONFIRMS_LATE,
        /** Reports a failure; the peer is not touched. */
        FAILS,
        /** No answer within the device timeout: reported failed; the peer was in fact powered off. */
        TIMES_OUT_BUT_OFF,
        /** No answer within the device timeout: reported failed; the peer is untouched. */
        TIMES_OUT
    }

    /** How agents misbehave while an {@link Kind#AGENT} window lasts. */
    public enum AgentFault {
        /** The group's second resource fails to start (the first is rolled back). */
        START_FAILS,
        /** Every stop of the group's resources fails (a start's rollback too). */
        STOP_FAILS,
        /** The second resource's start fails and its rollback's stops fail. */
        ROLLBACK_FAILS,
        /** Operations take ten times as long. */
        SLOW,
        /** Operations hang until the executor's timeout, then fail. */
        HANGS
    }

    /** This event shortened to {@code millis} (window faults only). */
    public SimEvent withDuration(long millis) {
        return new SimEvent(atMillis, kind, node, target, dir, param, millis);
    }

    /** One line for traces: {@code 12.300 s node2 FREEZE 3.400 s}. */
    public String describe() {
        String who = "node" + (node + 1);
        String link = target == 2 ? "all links" : target == 0 ? "eth1" : "serial";
        String way = dir == 2 ? "both ways" : dir == 0 ? "node1->node2" : "node2->node1";
        String what = switch (kind) {
            case LOSS, DUPLICATE, CORRUPT -> kind + " " + param + "% " + link + " " + way;
            case DELAY -> "DELAY up to " + param + " ms " + link + " " + way;
            case REPLAY -> "REPLAY " + param + " old frame(s) " + link + " " + way;
            case CUT -> "CUT " + link + " " + way;
            case FLAP -> "FLAP every " + param + " ms " + link + " " + way;
            case FREEZE, KILL, POWER, SHUTDOWN -> who + " " + kind;
            case FENCE -> who + "'s fencing device " + FenceMode.values()[param];
            case AGENT -> who + " group#" + target + " " + AgentFault.values()[param];
            case MONITOR -> who + " monitor gives up on group#" + target;
            case STANDBY, TAKEOVER -> who + " hb " + kind.name().toLowerCase(Locale.ROOT) + " "
                    + org.jheartbeat.core.takeover.ResourceSet.values()[param];
            case FAILBACK -> who + " hb failback";
            case CLEANUP -> who + " hb cleanup " + (target < 0 ? "(all)" : "group#" + target);
            case MAINTENANCE -> who + " hb maintenance " + switch (param) {
                case 0 -> "on";
                case 1 -> "off";
                case 2 -> "on --node " + who;
                case 3 -> "off --node " + who;
                case 4 -> "on --group group#" + target;
                default -> "off --group group#" + target;
            };
            case RELOAD -> who + " hb reload with haresources variant " + param;
            case WALL_JUMP -> who + " wall clock jumps " + param + " s";
        };
        String at = String.format(Locale.ROOT, "%8.3f s ", atMillis / 1000.0);
        return at + what + (kind.window() || kind == Kind.RELOAD
                ? String.format(Locale.ROOT, " for %.3f s", durationMillis / 1000.0) : "");
    }

    /** The Java expression that rebuilds this event (for a regression test). */
    public String toJava() {
        return "new SimEvent(" + atMillis + ", SimEvent.Kind." + kind + ", " + node + ", " + target + ", " + dir
                + ", " + param + ", " + durationMillis + ")";
    }
}
