/**
 * The daemon's liveness signals, both sent from the cluster loop's thread so that a loop that hangs
 * stops sending them: the kernel watchdog device of ha.cf {@code watchdog} ({@link
 * org.jheartbeat.cli.watchdog.Watchdog}: open, pet, magic close; a hung node is reset by the kernel, as
 * with Heartbeat 3.0.6) and systemd's service notifications ({@link
 * org.jheartbeat.cli.watchdog.SystemdNotifier}: {@code READY=1}, {@code WATCHDOG=1}, {@code STOPPING=1};
 * a hung daemon is killed and restarted by systemd). {@link org.jheartbeat.cli.watchdog.DaemonWatchdogs}
 * puts them together for {@code hb daemon}; {@link org.jheartbeat.cli.watchdog.PetSchedule} is the pure
 * rule of when to pet. Depends on {@code core.config}, {@code core.time} and {@code cli.logging} (the
 * unix datagram sender); nothing here imports the daemon.
 */
package org.jheartbeat.cli.watchdog;
