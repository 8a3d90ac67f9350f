/**
 * Logging of {@code hb daemon}: Heartbeat 3.0.6's line format and level words on stderr and the ha.cf
 * {@code logfile}/{@code debugfile}, each output behind a queue that drops (and counts) rather than
 * blocks the cluster loop, and log-file write errors reported instead of thrown. Depends on logback
 * and {@code core.time} only.
 */
package org.jheartbeat.cli.logging;
