package org.jheartbeat.core.wire;

import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.wire.WireFormatException.Reason;

/**
 * The entry point for media: sniffs and verifies inbound packets, and produces outbound UDP
 * datagrams and serial frames exactly as Heartbeat 3.0.6 does (heartbeat {@code
 * process_outbound_packet}, {@code ha_msg_internal.c add_control_msg_fields}; cluster-glue 1.0.12
 * {@code cl_msg.c msg2wirefmt_ll}/{@code wirefmt2msg_ll}). Stateless; all methods are static.
 */
public final class WireCodec {
    private WireCodec() {
    }

    /**
     * Decodes and authenticates one inbound packet. The first 4 bytes choose the format: {@code
     * ###\n} is netstring (only the trailer is checked, as Heartbeat does), {@code >>>\n} is classic
     * (the inner {@code auth=} field must verify).
     *
     * @param packet a whole UDP payload or serial frame, at most {@link
     *               NetstringCodec#MAX_MESSAGE_BYTES} bytes
     * @param a      the local authenticator; any locally defined index is accepted
     * @return the authenticated message
     * @throws AuthenticationException if authentication fails
     * @throws WireFormatException     {@code UNKNOWN_FORMAT} for any other prefix (Heartbeat drops
     *     those silently), otherwise as {@link NetstringCodec#decode} / {@link ClassicCodec#decode}
     */
    public static HaMessage decode(byte[] packet, MessageAuthenticator a) throws WireFormatException {
        if (NetstringCodec.startsWith(packet, 0, NetstringCodec.START)) {
            return NetstringCodec.decodeAndVerify(packet, a);
        }
        if (NetstringCodec.startsWith(packet, 0, ClassicCodec.START)) {
            return ClassicCodec.decodeAndVerify(packet, a);
        }
        throw new WireFormatException(Reason.UNKNOWN_FORMAT, "packet of " + packet.length
                + " bytes starts with neither ###\\n nor >>>\\n at offset 0");
    }

    /**
     * Encodes a datagram for a UDP medium: always the netstring format with its trailer.
     *
     * @param m         the message with its control fields already set
     * @param a         the signer ({@code auth N})
     * @param innerAuth true for {@code msgfmt classic} (Heartbeat's default): first set the {@code
     *                  auth} field (replaced in place, or appended last) to {@code a.sign} of {@link
     *                  ClassicCodec#renderForAuth}; false for {@code msgfmt netstring}: encode {@code m}
     *                  as given
     * @return the datagram bytes
     * @throws IllegalArgumentException if the message is too large or (with innerAuth) holds a struct or
     *     compressed field
     */
    public static byte[] encodeForUdp(HaMessage m, MessageAuthenticator a, boolean innerAuth) {
        HaMessage toSend = innerAuth ? withInnerAuth(m, a) : m;
        return NetstringCodec.encodeSigned(toSend, a);
    }

    /**
     * Encodes a frame for a serial medium: the classic format with the inner {@code auth} field set
     * (replaced in place, or appended last), as Heartbeat's serial plugin writes.
     *
     * @throws IllegalArgumentException as {@link ClassicCodec#encode}
     */
    public static byte[] encodeForSerial(HaMessage m, MessageAuthenticator a) {
        return ClassicCodec.encode(withInnerAuth(m, a));
    }

    /**
     * A copy of {@code m} whose {@code auth} field holds the digest of its classic rendering (B.2 of
     * the facts file; Heartbeat {@code add_msg_auth}).
     */
    public static HaMessage withInnerAuth(HaMessage m, MessageAuthenticator a) {
        return m.with(Field.AUTH, a.sign(ClassicCodec.renderForAuth(m)));
    }
}
