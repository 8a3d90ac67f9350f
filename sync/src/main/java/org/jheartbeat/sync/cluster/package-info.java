/**
 * Replication and backups tied to the cluster ({@link org.jheartbeat.sync.cluster.SyncRuntime}): jobs
 * fire only for groups running on this node, a group's data is pushed to the peer once more when a
 * hand-over stops it here (inside the group's stop, as a resource group executor lifecycle hook), and a
 * hand-over sync is cancelled when the peer is lost. It reads the cluster through status snapshots, by
 * the takeover machine's typed group states, never through the protocol.
 */
package org.jheartbeat.sync.cluster;
