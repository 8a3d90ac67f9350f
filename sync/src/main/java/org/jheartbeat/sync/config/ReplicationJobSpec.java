package org.jheartbeat.sync.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One replication job of {@code sync.yaml} ({@code jobs:}). It runs only on the node that currently
 * runs its resource group, so data always flows from the active copy to the replica.
 *
 * @param name          job name ({@code [A-Za-z0-9_.-]+})
 * @param group         the resource group it follows: a group key (first resource token of a
 *                      haresources line) or any resource token found in exactly one group
 * @param paths         absolute source directories; each is replicated to the same path on the
 *                      peer, or under {@code targetPath} (as {@code targetPath/<path without />})
 * @param targetPath    empty: the peer over ssh ({@code target: peer}); else a local absolute path
 *                      (for instance an NFS mount)
 * @param schedule      cron expression: 5 fields (Unix cron), e.g. {@code *}{@code /5 * * * *}, or 6
 *                      with a leading seconds field (see {@link CronSchedule})
 * @param delete        pass {@code --delete} (guards apply)
 * @param rsyncOptions  extra rsync options, appended after the built-in ones
 * @param requireMount  every path must be a mount point, or the job refuses to run
 * @param maxLoss       0..1: refuse a {@code --delete} run when more than this share of the files
 *                      counted at the last successful run is gone (1 disables the check)
 * @param retries       how many times a transient failure is retried
 * @param retryDelay    wait between retries
 * @param timeout       limit of one rsync run
 * @param pre           {@code pre:} shell command run on this (the source) node before the copy,
 *                      after the guards allowed it, e.g. a consistent database dump into the data
 *                      partition; a failure (exit not 0, or {@code hookTimeout}) aborts the run with
 *                      the hook's last line of output (jheartbeat's extension; Heartbeat had no
 *                      replication)
 * @param post          {@code post:} shell command run after the copy whenever {@code pre} was
 *                      started or the copy ran, whatever the outcome (e.g. to release a lock taken
 *                      by {@code pre}); its failure is logged and noted in the message only
 * @param hookTimeout   limit of each hook run
 * @param line          1-based line of sync.yaml where the job starts (0 when built in code)
 * @param nfs           the target declared as an NFS export ({@code target: {nfs: ...}}); then
 *                      {@code targetPath} is its mount point
 */
public record ReplicationJobSpec(String name, String group, List<Path> paths, Optional<Path> targetPath,
                                 String schedule, boolean delete, List<String> rsyncOptions,
                                 boolean requireMount, double maxLoss, int retries, Duration retryDelay,
                                 Duration timeout, Optional<String> pre, Optional<String> post,
                                 Duration hookTimeout, int line, Optional<NfsTarget> nfs) {

    /** Default {@code schedule}: every five minutes. */
    public static final String DEFAULT_SCHEDULE = "*/5 * * * *";
    /** Default {@code max_loss}. */
    public static final double DEFAULT_MAX_LOSS = 0.5;
    /** Default {@code retries}. */
    public static final int DEFAULT_RETRIES = 3;
    /** Default {@code retry_delay}. */
    public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(30);
    /** Default {@code timeout}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(1);
    /** Default {@code hook_timeout}. */
    public static final Duration DEFAULT_HOOK_TIMEOUT = Duration.ofMinutes(5);

    public ReplicationJobSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        paths = List.copyOf(paths);
        Objects.requireNonNull(targetPath, "targetPath");
        Objects.requireNonNull(schedule, "schedule");
        rsyncOptions = List.copyOf(rsyncOptions);
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(pre, "pre");
        Objects.requireNonNull(post, "post");
        Objects.requireNonNull(hookTimeout, "hookTimeout");
        Objects.requireNonNull(nfs, "nfs");
        if (nfs.isPresent() && !targetPath.equals(Optional.of(nfs.get().mountPoint()))) {
            throw new IllegalArgumentException("an NFS target's targetPath must be its mount point");
        }
    }

    /** A job whose target is the peer or a plain path (no NFS declaration). */
    public ReplicationJobSpec(String name, String group, List<Path> paths, Optional<Path> targetPath,
                              String schedule, boolean delete, List<String> rsyncOptions, boolean requireMount,
                              double maxLoss, int retries, Duration retryDelay, Duration timeout, Optional<String> pre,
                              Optional<String> post, Duration hookTimeout, int line) {
        this(name, group, paths, targetPath, schedule, delete, rsyncOptions, requireMount, maxLoss, retries,
                retryDelay, timeout, pre, post, hookTimeout, line, Optional.empty());
    }

    /** A job without hooks (the form before {@code pre:}/{@code post:} existed). */
    public ReplicationJobSpec(String name, String group, List<Path> paths, Optional<Path> targetPath,
                              String schedule, boolean delete, List<String> rsyncOptions, boolean requireMount,
                              double maxLoss, int retries, Duration retryDelay, Duration timeout, int line) {
        this(name, group, paths, targetPath, schedule, delete, rsyncOptions, requireMount, maxLoss, retries,
                retryDelay, timeout, Optional.empty(), Optional.empty(), DEFAULT_HOOK_TIMEOUT, line);
    }

    /**
     * @param key the canonical group key
     * @return this job following {@code key}
     */
    public ReplicationJobSpec withGroup(String key) {
        return new ReplicationJobSpec(name, key, paths, targetPath, schedule, delete, rsyncOptions, requireMount,
                maxLoss, retries, retryDelay, timeout, pre, post, hookTimeout, line, nfs);
    }

    /**
     * @param target the NFS declaration
     * @return this job writing to that export (its target path is the mount point)
     */
    public ReplicationJobSpec withNfs(NfsTarget target) {
        return new ReplicationJobSpec(name, group, paths, Optional.of(target.mountPoint()), schedule, delete,
                rsyncOptions, requireMount, maxLoss, retries, retryDelay, timeout, pre, post, hookTimeout, line,
                Optional.of(target));
    }

    /** True when the destination is the peer node over ssh. */
    public boolean toPeer() {
        return targetPath.isEmpty();
    }
}
