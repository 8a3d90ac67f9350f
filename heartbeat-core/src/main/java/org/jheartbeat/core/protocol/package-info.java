/**
 * Heartbeat 3.0.6's R1 protocol as a pure engine: control fields and signing
 * ({@link org.jheartbeat.core.protocol.OutboundStamper}), inbound validation, sequencing and
 * dispatch ({@link org.jheartbeat.core.protocol.NodeEngine}), resource-protocol messages
 * ({@link org.jheartbeat.core.protocol.ResourceMessages}) and bad-packet accounting. No I/O, no clock
 * reads, no threads.
 */
package org.jheartbeat.core.protocol;
