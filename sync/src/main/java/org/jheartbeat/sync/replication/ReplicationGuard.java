package org.jheartbeat.sync.replication;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.sync.config.ReplicationJobSpec;

/**
 * Decides whether a replication run may go ahead (pure: the facts are measured by the caller, see
 * {@link PathFacts#probe}). This is what keeps a broken source from wiping the good replica with
 * {@code rsync --delete} (docs/design/sync.md):
 *
 * <ol>
 * <li>A missing source directory always refuses: there is nothing to copy, and rsync would fail
 *     with exit 23 anyway.</li>
 * <li>With {@code delete: true} only, since only then can the replica lose data:
 *   <ul>
 *   <li>{@code require_mount: true} and the directory is not a mount target: the filesystem is
 *       not mounted, and the empty directory beneath would be mirrored;</li>
 *   <li>the directory is empty;</li>
 *   <li>more than {@code max_loss} of the entries counted at the last successful run are gone
 *       (skipped when there is no previous count, or {@code max_loss} is 1).</li>
 *   </ul></li>
 * </ol>
 * The first refusing path and rule decide; paths are checked in job order.
 */
public final class ReplicationGuard {
    private ReplicationGuard() {
    }

    /**
     * The verdict.
     *
     * @param allowed {@code true} to run
     * @param reason  why not (empty when allowed), e.g. {@code /srv/web is empty}
     */
    public record Decision(boolean allowed, String reason) {
        /** The single ALLOW decision. */
        public static final Decision ALLOW = new Decision(true, "");

        /** A refusal with its reason. */
        public static Decision refuse(String reason) {
            return new Decision(false, reason);
        }
    }

    /**
     * Checks a job's sources.
     *
     * @param job        the job (its {@code delete}, {@code require_mount}, {@code max_loss})
     * @param facts      one entry per source path, in job order
     * @param lastCounts entry counts per path (by {@code Path.toString()}) at the last successful
     *                   run; missing entries mean "no previous count"
     * @return ALLOW or a refusal with a one-line reason
     */
    public static Decision check(ReplicationJobSpec job, List<PathFacts> facts, Map<String, Long> lastCounts) {
        return check(job, facts, lastCounts, false);
    }

    /**
     * As {@link #check(ReplicationJobSpec, List, Map)}; with {@code acceptLoss} (the operator's
     * {@code hb sync run JOB --accept-loss}: the files were removed on purpose) the empty and
     * max_loss checks are skipped. A missing source and an unmounted one are still refused.
     *
     * @param acceptLoss skip the empty and max_loss checks
     * @return ALLOW or a refusal with a one-line reason and what to do
     */
    public static Decision check(ReplicationJobSpec job, List<PathFacts> facts, Map<String, Long> lastCounts,
                                 boolean acceptLoss) {
        String intended = ": if that is intended, run 'hb sync run " + job.name()
                + " --accept-loss' on this node; until then the replica keeps every file";
        for (PathFacts f : facts) {
            if (!f.exists()) {
                return Decision.refuse(f.path() + " does not exist or is not a directory");
            }
        }
        if (!job.delete()) {
            return Decision.ALLOW;
        }
        for (PathFacts f : facts) {
            if (job.requireMount() && !f.mountPoint()) {
                return Decision.refuse(f.path() + " is not a mount point (require_mount: true): mount it;"
                        + " until then the replica keeps every file");
            }
            if (acceptLoss) {
                continue;
            }
            if (f.fileCount() == 0) {
                return Decision.refuse(f.path() + " is empty" + intended);
            }
            Optional<Long> last = Optional.ofNullable(lastCounts.get(f.path().toString()));
            if (last.isPresent() && last.get() > 0 && job.maxLoss() < 1.0) {
                long lost = last.get() - f.fileCount();
                double share = (double) lost / last.get();
                if (share > job.maxLoss()) {
                    return Decision.refuse(f.path() + " lost " + Math.round(share * 100)
                            + " % of its files since the last run (" + last.get() + " -> " + f.fileCount()
                            + ", max_loss " + percent(job.maxLoss()) + " %)" + intended);
                }
            }
        }
        return Decision.ALLOW;
    }

    private static String percent(double share) {
        double p = share * 100;
        return p == Math.rint(p) ? Long.toString(Math.round(p)) : String.format(Locale.ROOT, "%.1f", p);
    }
}
