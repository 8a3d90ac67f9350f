package org.jheartbeat.sync.replication;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a node knows about one job's runs; persisted by {@link JobStateStore}.
 *
 * @param job              job name
 * @param lastStart        start of the latest run
 * @param lastEnd          end of the latest finished run
 * @param result           outcome of the latest run ({@link JobResult#RUNNING} while one runs)
 * @param message          one-line summary or error of the latest run (may be empty)
 * @param bytesTransferred bytes of file data sent by the latest run ("Total transferred file
 *                         size" of {@code rsync --stats}, summed over paths)
 * @param filesTransferred regular files sent by the latest run ("Number of regular files
 *                         transferred")
 * @param filesTotal       entries in the sources counted by the latest run, for the loss guard
 * @param attempts         rsync attempts of the latest run (retries + 1 at most; 0 when refused)
 * @param lastSuccess      start of the latest OK or PARTIAL run
 * @param successCounts    entries per source path ({@code Path.toString()}) at the latest
 *                         successful run: the loss guard's reference
 */
public record JobState(String job, Optional<Instant> lastStart, Optional<Instant> lastEnd, JobResult result,
                       String message, long bytesTransferred, long filesTransferred, long filesTotal,
                       int attempts, Optional<Instant> lastSuccess, Map<String, Long> successCounts) {
    public JobState {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(lastStart, "lastStart");
        Objects.requireNonNull(lastEnd, "lastEnd");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(lastSuccess, "lastSuccess");
        successCounts = Map.copyOf(successCounts);
    }

    /** The state of a job that never ran here. */
    public static JobState never(String job) {
        return new JobState(job, Optional.empty(), Optional.empty(), JobResult.NEVER, "", 0, 0, 0, 0,
                Optional.empty(), Map.of());
    }

    /**
     * This state marked {@link JobResult#SKIPPED} at {@code at}, saying why; the previous success data is kept.
     *
     * @param at  when the run was due
     * @param why one line for {@code hb sync status}
     * @return the new state
     */
    public JobState skipped(Instant at, String why) {
        return new JobState(job, Optional.of(at), Optional.of(at), JobResult.SKIPPED, why, 0, 0, filesTotal, 0,
                lastSuccess, successCounts);
    }

    /** This state marked RUNNING since {@code start}; the previous success data is kept. */
    public JobState running(Instant start) {
        return new JobState(job, Optional.of(start), lastEnd, JobResult.RUNNING, "", 0, 0, filesTotal, 0,
                lastSuccess, successCounts);
    }
}
