/**
 * {@code /etc/ha.d/sync.yaml}, the jheartbeat extension that has no Heartbeat 3.0.6 counterpart: the
 * file's model ({@link org.jheartbeat.sync.config.SyncConfig} with its replication jobs, {@link
 * org.jheartbeat.sync.config.ReplicationJobSpec}, and removable-disk backups, {@link
 * org.jheartbeat.sync.config.BackupSpec}; schedules as cron expressions, {@link
 * org.jheartbeat.sync.config.CronSchedule}) and its parser ({@link
 * org.jheartbeat.sync.config.SyncConfigParser}, snakeyaml node trees so every error names its line).
 * The user errors of a file are one {@link org.jheartbeat.sync.config.SyncConfigException} holding
 * every one of them, each {@code FILE:LINE: what is wrong; what to do}. No I/O beyond reading the file.
 */
package org.jheartbeat.sync.config;
