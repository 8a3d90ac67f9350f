/**
 * The Heartbeat 3.0.6 message model and its two wire formats: {@link
 * org.jheartbeat.core.wire.HaMessage} (an ordered list of typed fields), the wire spellings of field
 * names and message types ({@link org.jheartbeat.core.wire.Field}, {@link
 * org.jheartbeat.core.wire.MessageType}), the netstring format used on UDP ({@link
 * org.jheartbeat.core.wire.NetstringCodec}), the classic text format used on serial lines and for the
 * inner {@code auth=} digest ({@link org.jheartbeat.core.wire.ClassicCodec}) and the sniffing facade
 * {@link org.jheartbeat.core.wire.WireCodec}. Everything here is pure {@code byte[]} to value
 * conversion: decoders are bounded, never throw anything but {@link
 * org.jheartbeat.core.wire.WireFormatException}, and may use {@code org.jheartbeat.core.auth} for
 * signing. This package must not import Netty, sockets, serial ports, files, clocks, threads or
 * logging, nor any membership, takeover or resource package.
 */
package org.jheartbeat.core.wire;
