/**
 * Tests of the daemon's logging: Heartbeat 3.0.6's line format and levels on every output, non-
 * blocking appenders that drop and count lines when an output is stuck ({@link
 * org.jheartbeat.cli.logging.BlockingOutput} plays a pipe nobody reads), the rate of drop reports
 * (on a given clock, in ms), and log-file write errors reported once instead of thrown.
 */
package org.jheartbeat.cli.logging;
