package org.jheartbeat.sync.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole of {@code /etc/ha.d/sync.yaml}: replication jobs and removable-disk backups.
 *
 * <pre>{@code
 * state_dir: /var/lib/jheartbeat/sync     # job state, locks, replica stamps (default shown)
 * ssh: ssh -o BatchMode=yes -o ConnectTimeout=5   # rsync -e command (default shown)
 * nodes:                                  # where each node is reached for replication
 *   node1: 198.18.1.1                     #   (the crossover link's addresses)
 *   node2: 198.18.1.2
 * jobs:
 *   web:                                  # job name: [A-Za-z0-9_.-]+
 *     group: 198.18.0.100                 # resource group it follows (key or a resource token)
 *     paths: [/srv/web, /srv/mysql]       # absolute source directories
 *     target: peer                        # peer (same paths on the peer over ssh) | /abs/path
 *     schedule: "0-59/5 * * * *"          # cron: 5 fields, or 6 with leading seconds (default every 5 min)
 *     delete: true                        # rsync --delete (default true)
 *     rsync_options: [--numeric-ids]      # extra rsync options
 *     require_mount: true                 # each path must be a mount point (default false)
 *     max_loss: 0.5                       # refuse --delete if this share of files vanished
 *     retries: 3                          # transient failures retried (default 3)
 *     retry_delay: 30s                    # between retries (default 30s)
 *     timeout: 1h                         # one rsync run (default 1h)
 *     pre: /usr/local/sbin/db-dump        # sh -c on the source before the copy; failure aborts it
 *     post: rm -f /srv/web/.dumping       # sh -c after the copy, whatever happened (once pre ran)
 *     hook_timeout: 5m                    # limit of each hook (default 5m)
 * backups:
 *   drawer:
 *     label: JHB-BACKUP                   # filesystem label, or uuid: ...
 *     device: /dev/sdb1                   # optional: the drawer's device (wrong-disk check)
 *     mount_point: /mnt/jhb-backup
 *     paths: [/srv/web, /srv/mail]
 *     keep: 7                             # snapshots kept (default 7)
 *     poll: 10s                           # disk presence poll (default 10s)
 *     fsck: true                          # e2fsck -p before mounting (default true)
 * }</pre>
 *
 * @param source    the file it was read from (for messages), or {@code null} for built configs
 * @param stateDir  directory of job state files, locks and replica stamps
 * @param ssh       the remote-shell command rsync uses ({@code rsync -e}), as argv
 * @param nodes     node name to the address replication reaches it at (may be empty when every
 *                  job has a path target)
 * @param jobs      replication jobs in file order
 * @param backups   backup jobs in file order
 */
public record SyncConfig(Path source, Path stateDir, List<String> ssh, Map<String, String> nodes,
                         List<ReplicationJobSpec> jobs, List<BackupSpec> backups) {

    /** Default {@code state_dir}. */
    public static final Path DEFAULT_STATE_DIR = Path.of("/var/lib/jheartbeat/sync");
    /** Default {@code ssh}. */
    public static final List<String> DEFAULT_SSH = List.of("ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5");

    public SyncConfig {
        Objects.requireNonNull(stateDir, "stateDir");
        ssh = List.copyOf(ssh);
        nodes = Map.copyOf(nodes);
        jobs = List.copyOf(jobs);
        backups = List.copyOf(backups);
    }

    /** An empty config: no jobs, no backups (what a missing sync.yaml means). */
    public static SyncConfig empty() {
        return new SyncConfig(null, DEFAULT_STATE_DIR, DEFAULT_SSH, Map.of(), List.of(), List.of());
    }

    /** The job called {@code name}, if any. */
    public Optional<ReplicationJobSpec> job(String name) {
        return jobs.stream().filter(j -> j.name().equals(name)).findFirst();
    }

    /** The backup called {@code name}, if any. */
    public Optional<BackupSpec> backup(String name) {
        return backups.stream().filter(b -> b.name().equals(name)).findFirst();
    }
}
