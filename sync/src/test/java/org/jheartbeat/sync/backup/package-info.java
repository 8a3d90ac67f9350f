/**
 * Tests of removable-disk backups: probing with a fake blkid, the state file, one run per
 * insertion, snapshot names in UTC seconds and rotation beyond keep, and (BackupServiceIT, root)
 * whole runs on real ext4 images on loop devices with real mount and rsync ({@link
 * org.jheartbeat.sync.backup.LoopImage} detaches only what it attached).
 */
package org.jheartbeat.sync.backup;
