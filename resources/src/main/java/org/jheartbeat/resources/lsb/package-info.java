/**
 * The {@code lsb:} agent class: {@code /etc/init.d} scripts read by their LSB exit codes (LSB Core
 * "Init Script Actions"; status mapped as Pacemaker's {@code lsb} class), with per-resource timeouts.
 * Must not import {@code ip}, {@code group} or {@code lookup}.
 */
package org.jheartbeat.resources.lsb;
