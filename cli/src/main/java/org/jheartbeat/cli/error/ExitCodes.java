package org.jheartbeat.cli.error;

/**
 * The exit codes of {@code hb}, a documented contract shared with the systemd unit
 * ({@code RestartPreventExitStatus=}) and listed by {@code hb --help}. 3 and 4 follow LSB's
 * "program is not running" and "insufficient privilege".
 */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /**
     * A runtime failure: a medium could not start, the daemon answered an error, I/O failed; also the
     * daemon's own exit on an Error in its cluster loop ({@code LoopGuard.FATAL_EXIT_STATUS}, restarted).
     */
    public static final int FAILURE = 1;
    /** The configuration is invalid (every problem was printed as file:line: message). */
    public static final int CONFIG = 2;
    /** No daemon is running on this state directory (LSB status 3). */
    public static final int NOT_RUNNING = 3;
    /** Permission denied, e.g. on the control socket (LSB 4). */
    public static final int PERMISSION = 4;
    /**
     * The daemon refused an operator request without changing anything, e.g. {@code hb standby} while
     * a standby or takeover of this node is in progress or resources are in flux (Heartbeat 3.0.6
     * ignores such a request: "Standby in progress- new request from NODE ignored"). Trying again later
     * may work: sysexits' EX_TEMPFAIL.
     */
    public static final int REFUSED = 75;
    /** The command line is wrong (unknown option, missing argument): EX_USAGE. */
    public static final int USAGE = 64;

    private ExitCodes() {
    }
}
