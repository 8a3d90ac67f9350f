package org.jheartbeat.core.media.serial;

/**
 * Counters of one {@link SerialMedium}, for {@code hb status}. All counts are totals since the medium
 * was created.
 *
 * @param garbageBytes        bytes read from the line that were not part of a delivered frame (noise,
 *                            partial and oversize frames; CRs not counted), see {@link SerialFramer}
 * @param framesReceived      complete frames delivered to the sink
 * @param framesDiscarded     started frames abandoned by the framer (restarted, oversize, cut by reopen)
 * @param framesDroppedOnSend frames given to {@code send} that were not fully written: queue overflow,
 *                            line down, write timeout or write error
 * @param reopenCount         times the device was reopened after a failure
 * @param writeTimeouts       fragment writes that took longer than 500 ms or were cut short
 * @param connected           whether the device is open right now
 */
public record SerialStats(long garbageBytes, long framesReceived, long framesDiscarded,
                          long framesDroppedOnSend, long reopenCount, long writeTimeouts, boolean connected) {
}
