package org.jheartbeat.resources.group;

/** What the group runner did to one resource. */
public enum ResourceStep {
    /** start ran and succeeded. */
    STARTED,
    /** status already said running; start was skipped and a rollback will not stop it. */
    ALREADY_RUNNING,
    /** start failed, or no agent could be made for the resource. */
    START_FAILED,
    /** stop succeeded, or failed while status says not running (not LSB-compliant). */
    STOPPED,
    /** stop still failing with status running after all attempts (Heartbeat would reboot). */
    STOP_FAILED
}
