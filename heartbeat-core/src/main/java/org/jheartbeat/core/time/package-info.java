/**
 * Time sources and the one way to wait. The only package that reads the JVM's clocks or calls
 * {@code Thread.sleep}; everything else receives {@code nowNanos} as an argument or a
 * {@link org.jheartbeat.core.time.MonotonicClock}, {@link org.jheartbeat.core.time.WallClock} or
 * {@link org.jheartbeat.core.time.Sleeper}. Imports nothing of ours.
 */
package org.jheartbeat.core.time;
