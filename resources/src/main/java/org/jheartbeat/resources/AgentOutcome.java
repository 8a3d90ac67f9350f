package org.jheartbeat.resources;

/**
 * What a resource agent operation concluded. {@code start} and {@code stop} answer {@link #OK} or
 * {@link #FAILED}; {@code status} answers {@link #RUNNING} or {@link #STOPPED}, or {@link #FAILED}
 * when the status could not be determined at all (the caller then treats the resource as not
 * running, as Heartbeat 3.0.6's ResourceManager does with empty status output).
 */
public enum AgentOutcome {
    /** start or stop succeeded (or had nothing to do). */
    OK,
    /** the operation failed, or its status could not be determined. */
    FAILED,
    /** status: the resource is running here. */
    RUNNING,
    /** status: the resource is not running here. */
    STOPPED
}
