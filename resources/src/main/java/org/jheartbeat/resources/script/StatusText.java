package org.jheartbeat.resources.script;

import java.util.regex.Pattern;

/**
 * Decides "running" from a script's {@code status} stdout exactly as Heartbeat 3.0.6
 * ResourceManager's {@code we_own_resource}: the exit code is ignored and, in this order,
 * <ol>
 *   <li>text matching the shell pattern {@code *[Nn][Oo][Tt] *[Rr]unning*} (the letters "not", one
 *       space, anything, then "running" or "Running") means stopped;</li>
 *   <li>otherwise text containing {@code running}, {@code Running} or {@code OK} means running;</li>
 *   <li>anything else (including empty output) means stopped.</li>
 * </ol>
 * Matching spans lines, as a shell {@code case} on command output does. Pure.
 */
public final class StatusText {
    private static final Pattern NOT_RUNNING = Pattern.compile("[Nn][Oo][Tt] .*[Rr]unning", Pattern.DOTALL);
    private static final Pattern RUNNING = Pattern.compile("[Rr]unning|OK");

    private StatusText() {
    }

    /**
     * @param stdout the complete standard output of {@code <script> <args> status}
     * @return {@code true} if Heartbeat would consider the resource running
     */
    public static boolean saysRunning(String stdout) {
        if (NOT_RUNNING.matcher(stdout).find()) {
            return false;
        }
        return RUNNING.matcher(stdout).find();
    }
}
