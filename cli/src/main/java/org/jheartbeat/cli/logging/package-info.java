/**
 * Logging of {@code hb daemon}: Heartbeat 3.0.6's line format and level words on stderr and the ha.cf
 * {@code logfile}/{@code debugfile}, and syslog records (glibc {@code syslog(3)} format, ha.cf
 * {@code logfacility}, ident {@code jheartbeat}) on the local socket {@code /dev/log}; each output
 * behind a queue that drops (and counts) rather than blocks the cluster loop, and write errors
 * reported instead of thrown. Depends on logback, Netty's native unix-socket transport (syslog only)
 * and {@code core.time}.
 */
package org.jheartbeat.cli.logging;
