package org.jheartbeat.sync.replication;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The result of one {@link ReplicationRunner#run} call.
 *
 * @param job              job name
 * @param trigger          why it ran
 * @param result           OK, PARTIAL, REFUSED, FAILED_TRANSIENT, FAILED_FATAL; {@link JobResult#RUNNING}
 *                         means another run held the job's lock, nothing was done and the state
 *                         file was left alone
 * @param message          one-line summary or reason, as logged
 * @param start            when the call started (injected clock)
 * @param end              when it ended
 * @param bytesTransferred file data sent, bytes
 * @param filesTransferred regular files sent
 * @param filesTotal       entries counted in the sources (0 if not counted)
 * @param attempts         rsync invocations made
 */
public record RunOutcome(String job, RunTrigger trigger, JobResult result, String message, Instant start,
                         Instant end, long bytesTransferred, long filesTransferred, long filesTotal,
                         int attempts) {
    public RunOutcome {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
    }

    /** @return {@code true} for OK and PARTIAL */
    public boolean ok() {
        return result.success();
    }

    /** @return end minus start */
    public Duration elapsed() {
        return Duration.between(start, end);
    }
}
