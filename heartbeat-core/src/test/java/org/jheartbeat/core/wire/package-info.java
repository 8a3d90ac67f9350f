/**
 * Tests of the wire formats: every captured Heartbeat 3.0.6 UDP datagram and serial frame decodes,
 * authenticates and re-encodes byte for byte (captures located by {@link
 * org.jheartbeat.core.wire.HeartbeatVectors}), the worked example of facts section B.6, and every
 * malformed input refused with WireFormatException and nothing else.
 */
package org.jheartbeat.core.wire;
