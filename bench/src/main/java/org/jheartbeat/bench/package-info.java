/**
 * Benchmarks run by hand, never by the build or the daemon: {@link org.jheartbeat.bench.ReplicationBench}
 * times the sync module's replication runner (a full copy, then a rerun with no change, in s of wall
 * clock) for {@code bench/replication-bench.sh}, which compares it with a bare {@code rsync -a --delete}.
 * Figures are printed, never asserted. Not part of {@code hb.jar} or the Debian package.
 */
package org.jheartbeat.bench;
