/**
 * The jheartbeat-only settings file, {@code /etc/ha.d/jheartbeat.yaml}
 * ({@link org.jheartbeat.cli.config.JheartbeatYaml}): the metrics listen address, STONITH fencing
 * policy and resource monitor defaults, validated on the snakeyaml node tree so that every error
 * names its file and line. Read by the daemon, its reload, {@code hb config check/push} and the
 * Pacemaker export.
 */
package org.jheartbeat.cli.config;
