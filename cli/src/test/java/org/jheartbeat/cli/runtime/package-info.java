/**
 * Tests of the cli runtime bridges: host checks on given routing tables and script directories,
 * the per-group queues of the resource-group executor (in-memory agents, latches, bounds that only
 * catch hangs), the pure parts of the sync runtime, and the config-push plan with its remote
 * scripts run by the real /bin/sh on a temporary directory.
 */
package org.jheartbeat.cli.runtime;
