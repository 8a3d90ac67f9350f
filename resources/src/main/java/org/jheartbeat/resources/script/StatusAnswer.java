package org.jheartbeat.resources.script;

import java.util.regex.Pattern;

/**
 * Whether a Heartbeat-class script's {@code status} answer can be trusted by a monitor. Heartbeat reads
 * "running" from the text ({@link StatusText}) and takes everything else for stopped, so a script that
 * does not implement {@code status} (it prints its usage, or nothing) looks stopped while its service
 * runs: watched, it would be restarted and its group moved for nothing. An answer is trusted when it
 * says one of the two states in words: "running" (as {@link StatusText} reads it), or "not running",
 * "stopped", "dead" or "inactive" for stopped. Pure.
 */
public enum StatusAnswer {
    /** {@link StatusText} reads running. */
    RUNNING,
    /** The text says stopped in words. */
    STOPPED,
    /** Neither: empty, a usage line, an error. */
    UNCLEAR;

    private static final Pattern STOPPED_WORDS = Pattern.compile(
            "[Nn][Oo][Tt] .*[Rr]unning|\\b([Ss]topped|STOPPED|[Dd]ead|[Ii]nactive)\\b", Pattern.DOTALL);

    /**
     * @param stdout the complete standard output of {@code <script> <args> status}
     * @return how a monitor can read it
     */
    public static StatusAnswer of(String stdout) {
        if (StatusText.saysRunning(stdout)) {
            return RUNNING;
        }
        return STOPPED_WORDS.matcher(stdout).find() ? STOPPED : UNCLEAR;
    }
}
