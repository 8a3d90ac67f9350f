/**
 * Replication jobs that follow resource-group ownership (docs/design/sync.md). {@link
 * org.jheartbeat.sync.replication.ReplicationService} schedules jobs on the node that runs their
 * group and syncs before a handover; {@link org.jheartbeat.sync.replication.ReplicationRunner} runs
 * one job once (lock, {@link org.jheartbeat.sync.replication.ReplicationGuard}, rsync via {@link
 * org.jheartbeat.sync.replication.RsyncCommand}, {@link org.jheartbeat.sync.replication.RsyncExit}
 * classification, {@link org.jheartbeat.sync.replication.JobStateStore} state files, replica
 * stamps). Everything logs on the logger named {@code sync}.
 */
package org.jheartbeat.sync.replication;
