/**
 * The daemon's on-disk run-time state (generation, node UUID, control socket and pid file paths).
 * Thin I/O; imports nothing of ours.
 */
package org.jheartbeat.core.state;
