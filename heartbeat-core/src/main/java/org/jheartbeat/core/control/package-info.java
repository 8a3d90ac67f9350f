/**
 * The local control API over a Unix socket: {@link org.jheartbeat.core.control.ControlServer}
 * (concurrent, bounded, with read and write timeouts), {@link org.jheartbeat.core.control.ControlClient},
 * the typed requests ({@link org.jheartbeat.core.control.ControlRequest}, parsed in one place) and the
 * records they exchange ({@link org.jheartbeat.core.control.ControlResponse},
 * {@link org.jheartbeat.core.control.StatusSnapshot}). Imports no Netty and no other module of ours.
 */
package org.jheartbeat.core.control;
