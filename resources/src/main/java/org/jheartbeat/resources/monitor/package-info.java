/**
 * Watching resources while they run (docs/design/resources.md, "Monitoring"): the
 * pure decision kernel ({@link org.jheartbeat.resources.monitor.FailCounts}) that says, for each
 * failed monitor, whether a resource is restarted in place or its whole group moves, on an injected
 * monotonic clock; the settings of each resource
 * ({@link org.jheartbeat.resources.monitor.MonitorSettings}); and one group's checks and restarts in
 * place ({@link org.jheartbeat.resources.monitor.GroupMonitor}), which the group executor runs on the
 * group's own serial queue, never on the cluster loop thread.
 */
package org.jheartbeat.resources.monitor;
