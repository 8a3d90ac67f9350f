/**
 * Time sources. The only package that reads the JVM's clocks; everything else receives
 * {@code nowNanos} as an argument or a {@link org.jheartbeat.core.time.MonotonicClock}. Imports
 * nothing of ours.
 */
package org.jheartbeat.core.time;
