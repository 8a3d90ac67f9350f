/**
 * Tests of replication with the real rsync on real directories: the runner, its guards and lock
 * (held from another JVM by {@link org.jheartbeat.sync.replication.OtherProcessLock}), rsync's
 * command line and exit codes, the job state files, the scheduler with a hand-moved clock, and
 * (ReplicationPeerIT, root) the peer path over ssh to an sshd on 127.0.0.1 in its own mount
 * namespace.
 */
package org.jheartbeat.sync.replication;
