/**
 * The {@code systemd:} agent class: {@code systemctl start/stop} (synchronous jobs) checked with
 * {@code systemctl is-active}, as Pacemaker's {@code systemd} class reads a unit's ActiveState.
 * Must not import {@code ip}, {@code group} or {@code lookup}.
 */
package org.jheartbeat.resources.systemd;
