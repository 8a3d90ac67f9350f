/**
 * {@code hb daemon} behind its command line: {@link org.jheartbeat.cli.daemon.Daemon} checks the
 * configuration and the host, then wires this node together (state directory, logging, start-up release
 * of groups found running, protocol engine, UDP and serial media, resource-group executor, STONITH
 * fencer, sync runtime, cluster loop, control socket, SIGTERM/SIGINT/SIGHUP handlers) and runs it until
 * an orderly shutdown; {@link org.jheartbeat.cli.daemon.ControlHandler} answers the control-socket
 * requests ({@code hb status}, {@code cl_status}, hand-overs, cleanup, config digests) on the control
 * server's worker threads, never on the loop thread. The behaviour follows Heartbeat 3.0.6's
 * {@code heartbeat} daemon as docs/design/ describes it.
 */
package org.jheartbeat.cli.daemon;
