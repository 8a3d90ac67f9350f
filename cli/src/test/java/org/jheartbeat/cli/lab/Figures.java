package org.jheartbeat.cli.lab;

import java.time.Duration;

/**
 * A lab test never asserts the timing of what it does not control (the real Heartbeat, a
 * simulator, process starts, the machine's load). It waits at most {@link #HANG} for what must
 * happen, a bound that only catches a hang, and prints what it measured as one
 * {@code FIGURE name=value unit} line for a reader or a benchmark to compare between runs.
 */
final class Figures {
    /** How long a lab test waits for anything that must happen: only a hang takes this long. */
    static final Duration HANG = Duration.ofSeconds(120);
    /** {@link #HANG} in milliseconds. */
    static final long HANG_MS = HANG.toMillis();

    private Figures() {
    }

    /** Prints {@code FIGURE name=value unit (what)} on standard output; never fails. */
    static void print(String name, long value, String unit, String what) {
        System.out.printf("FIGURE %s=%d %s (%s)%n", name, value, unit, what);
    }
}
