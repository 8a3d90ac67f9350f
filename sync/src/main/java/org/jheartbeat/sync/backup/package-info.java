/**
 * Removable-disk backups ({@code backups:} of sync.yaml): {@link
 * org.jheartbeat.sync.backup.BackupService} polls for each disk by label/UUID with blkid, and on
 * insertion checks (e2fsck -p), mounts, takes a hard-linked snapshot with {@code rsync --link-dest}
 * into {@code <mount>/jheartbeat/<backup>/<yyyy-MM-dd'T'HHmmss'Z'>/}, verifies it by checksum,
 * rotates, and unmounts. Pure rules ({@link org.jheartbeat.sync.backup.SnapshotNames},
 * {@link org.jheartbeat.sync.backup.MountTable#parse}, {@link org.jheartbeat.sync.backup.RsyncStats},
 * the insertion rule) are separate from the thin I/O edge ({@link
 * org.jheartbeat.sync.backup.BackupDisk}); every program runs through heartbeat-core's
 * {@code ProcessRunner}. Nothing is ever written before /proc/self/mountinfo shows the disk
 * mounted on the mount point.
 */
package org.jheartbeat.sync.backup;
