/**
 * The local control API over a Unix socket: {@link org.jheartbeat.core.control.ControlServer},
 * {@link org.jheartbeat.core.control.ControlClient} and the records they exchange
 * ({@link org.jheartbeat.core.control.StatusSnapshot}). Imports no Netty and no other module of ours.
 */
package org.jheartbeat.core.control;
