/**
 * Time sources and the one way to wait. The only package that reads the JVM's clocks (besides the
 * few assembly points and I/O edges the architecture test lists) or calls {@code Thread.sleep};
 * everything else receives {@code nowNanos} as an argument or a
 * {@link org.jheartbeat.core.time.MonotonicClock} (deadlines, intervals, elapsed time), a
 * {@link java.time.Clock} (wall time: the {@code ts} field, timestamps, schedules) or a
 * {@link org.jheartbeat.core.time.Sleeper}; the system ones are taken only where a program is put
 * together (the daemon, the commands, public convenience constructors). Imports nothing of ours.
 */
package org.jheartbeat.core.time;
