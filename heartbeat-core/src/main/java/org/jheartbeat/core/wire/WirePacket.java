package org.jheartbeat.core.wire;

/**
 * One outgoing message, encoded once for each kind of medium: the signed netstring datagram that
 * Heartbeat 3.0.6 sends on UDP, and the classic {@code >>>}…{@code <<<} frame it writes on serial
 * lines (facts A.2, A.3, G.1). Both carry the same fields, the inner {@code auth=} field included.
 *
 * @param netstring the UDP payload, at most {@link NetstringCodec#MAX_MESSAGE_BYTES} bytes
 * @param classic   the serial frame, {@code >>>\n} through {@code <<<\n}
 */
public record WirePacket(byte[] netstring, byte[] classic) {

    /**
     * Encodes {@code m} for both media: adds the inner {@code auth=} field (msgfmt classic), then the
     * netstring trailer for UDP.
     */
    public static WirePacket of(HaMessage m, org.jheartbeat.core.auth.MessageAuthenticator a) {
        HaMessage signed = WireCodec.withInnerAuth(m, a);
        return new WirePacket(NetstringCodec.encodeSigned(signed, a), ClassicCodec.encode(signed));
    }
}
