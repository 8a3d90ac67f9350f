/**
 * {@code hb migrate check}: what a running Heartbeat 3.0.6 pair's /etc/ha.d (and ldirectord.cf) will do differently
 * under jheartbeat, found with the same parsers the daemon and {@code hb config check} use.
 */
package org.jheartbeat.cli.migrate;
