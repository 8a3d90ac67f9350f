package org.jheartbeat.core.sim;

import java.util.Locale;

/** Counts of one run, or summed over many ({@link #add}). */
final class SimStats {
    long schedules;
    long steps;
    long nodeNanos;
    long frames;
    long corrupted;
    long fences;
    long fencedOff;
    long selfFences;
    /** Both nodes powered off by fences within 10 s of each other (a fencing race both lost). */
    long mutualFences;
    /** Groups found running on both nodes without STONITH during a partition (Heartbeat's known split brain). */
    long splitBrains;
    long splitBrainNanos;
    long violations;

    void add(SimStats o) {
        schedules += o.schedules;
        steps += o.steps;
        nodeNanos += o.nodeNanos;
        frames += o.frames;
        corrupted += o.corrupted;
        fences += o.fences;
        fencedOff += o.fencedOff;
        selfFences += o.selfFences;
        mutualFences += o.mutualFences;
        splitBrains += o.splitBrains;
        splitBrainNanos += o.splitBrainNanos;
        violations += o.violations;
    }

    /** One paragraph for the test log and docs/simulation.md. */
    String describe(double wallSeconds) {
        return String.format(Locale.ROOT, "%d schedules, %.0f simulated node-seconds (%.1f node-hours), %d steps"
                        + " (%.0f steps/s, %.0f node-s per wall s) in %.1f s; %d frames (%d corrupted), %d fence"
                        + " requests (%d nodes powered off, %d mutual fencings), %d self-fences, %d split brains without STONITH"
                        + " (%.1f s in all), %d violations",
                schedules, nodeNanos / 1e9, nodeNanos / 3.6e12, steps, steps / wallSeconds,
                nodeNanos / 1e9 / wallSeconds, wallSeconds, frames, corrupted, fences, fencedOff, mutualFences, selfFences,
                splitBrains, splitBrainNanos / 1e9, violations);
    }
}
