/**
 * Data replication that follows resource-group ownership (rsync over ssh on a schedule) and
 * removable-disk backups, configured in {@code sync.yaml}. Depends on heartbeat-core only.
 */
package org.jheartbeat.sync;
