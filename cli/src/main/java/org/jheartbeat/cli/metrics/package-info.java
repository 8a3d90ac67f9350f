/**
 * The optional Prometheus endpoint of {@code hb daemon}, turned on by {@code metrics: listen} in
 * {@code /etc/ha.d/jheartbeat.yaml} ({@link org.jheartbeat.cli.config.JheartbeatYaml}):
 * metric families built from the daemon's status snapshots and event counts (heartbeat-core, which
 * knows nothing of Prometheus) and the sync module's job and backup states, served by the Prometheus
 * Java client. Never touches the cluster loop but through {@code ClusterLoop.observe()}.
 */
package org.jheartbeat.cli.metrics;
