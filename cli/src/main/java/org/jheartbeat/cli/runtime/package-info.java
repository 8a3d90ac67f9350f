/**
 * The daemon's and the commands' bridges between the pure modules and this host: checks of a
 * configuration against the machine ({@link org.jheartbeat.cli.runtime.HostChecks}: resource scripts,
 * media interfaces, duplicate and unroutable IP addresses), {@code sync.yaml} read for the sync module's
 * {@link org.jheartbeat.sync.cluster.SyncRuntime} ({@link org.jheartbeat.cli.runtime.SyncConfigFile}), Heartbeat 3.0.6's {@code cl_status} answered from a
 * status snapshot ({@link org.jheartbeat.cli.runtime.ClStatus}), and the files behind {@code hb
 * resources} and {@code hb config push} (haresources edits, the push plan and its ssh transport).
 */
package org.jheartbeat.cli.runtime;
