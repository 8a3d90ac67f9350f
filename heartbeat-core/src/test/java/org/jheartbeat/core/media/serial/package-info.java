/**
 * Tests of the serial medium: framing of the streams real Heartbeat 3.0.6 nodes wrote and of
 * hostile input, the send queue bounded in bytes, pacing to an 8N1 line on fake time, uucp LCK..
 * locks, and (SerialMediumIT) two media exchanging classic messages over a socat PTY pair at 19200
 * baud.
 */
package org.jheartbeat.core.media.serial;
