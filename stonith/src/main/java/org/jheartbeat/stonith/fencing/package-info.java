/**
 * STONITH in the daemon and in {@code hb config check}/{@code hb stonith}: {@link
 * org.jheartbeat.stonith.fencing.StonithSetup} builds this node's device from ha.cf's {@code stonith} or
 * {@code stonith_host} lines (the last usable one, as Heartbeat 3.0.6 picks it) and reports problems as
 * {@code ha.cf:line:} diagnostics; {@link org.jheartbeat.stonith.fencing.DeviceFencer} is the cluster loop's
 * fencer, resetting the peer on its own worker thread since a device may take many seconds, with
 * Heartbeat's log phrases.
 */
package org.jheartbeat.stonith.fencing;
