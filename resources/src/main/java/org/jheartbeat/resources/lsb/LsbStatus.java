package org.jheartbeat.resources.lsb;

import java.util.Arrays;
import org.jheartbeat.resources.AgentOutcome;

/**
 * Exit codes of an LSB init script's {@code status} action (LSB Core 3.0+, "Init Script
 * Actions") and what each means for the cluster, as Pacemaker's {@code lsb} class maps them
 * ({@code services__lsb2ocf}): 0 running; 1 (dead, pid file left), 2 (dead, lock file left) and 3
 * (stopped) are not running; 4 (unknown) and every other code are a failed status, which the
 * group runner never reads as "stopped" after a failed stop.
 */
public enum LsbStatus {
    RUNNING(0, "program is running or service is OK", AgentOutcome.RUNNING),
    DEAD_PID_FILE(1, "program is dead and /var/run pid file exists", AgentOutcome.STOPPED),
    DEAD_LOCK_FILE(2, "program is dead and /var/lock lock file exists", AgentOutcome.STOPPED),
    NOT_RUNNING(3, "program is not running", AgentOutcome.STOPPED),
    UNKNOWN(4, "program or service status is unknown", AgentOutcome.FAILED),
    OTHER(-1, "code outside the LSB status table", AgentOutcome.FAILED);

    private final int code;
    private final String meaning;
    private final AgentOutcome outcome;

    LsbStatus(int code, String meaning, AgentOutcome outcome) {
        this.code = code;
        this.meaning = meaning;
        this.outcome = outcome;
    }

    /** @return the exit status, -1 for {@link #OTHER} */
    public int code() {
        return code;
    }

    /** @return the LSB's wording */
    public String meaning() {
        return meaning;
    }

    /** @return RUNNING, STOPPED or FAILED */
    public AgentOutcome outcome() {
        return outcome;
    }

    /** @param code the exit status of {@code status} @return its row of the table; {@link #OTHER} for 5..255 */
    public static LsbStatus of(int code) {
        return Arrays.stream(values()).filter(s -> s.code == code && s != OTHER).findFirst().orElse(OTHER);
    }
}
