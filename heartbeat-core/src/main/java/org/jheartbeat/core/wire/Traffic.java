package org.jheartbeat.core.wire;

/**
 * What an outgoing packet is to a medium's send queue. A fast medium (UDP) sends everything at once
 * and ignores it; a slow one (a 19200 baud serial line carries about 1,900 bytes a second) sends
 * {@link #BEAT}s first and drops {@link #RETRANSMISSION}s first, so that a flood of retransmissions
 * after a cut of the other media never delays a beat until the peer declares this node dead.
 */
public enum Traffic {
    /** A {@code status} heartbeat: goes before anything else. */
    BEAT,
    /** Any other message sent for the first time (resource messages, acknowledgements, ...). */
    MESSAGE,
    /**
     * A packet sent again on the peer's {@code NS_rexmit}, or our own {@code NS_rexmit} request:
     * repeated every 250 ms until answered (facts C.4), so the first to be dropped when a line is full.
     */
    RETRANSMISSION
}
