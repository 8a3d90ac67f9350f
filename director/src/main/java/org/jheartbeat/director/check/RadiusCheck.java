package org.jheartbeat.director.check;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * {@code service=radius} negotiate check, as ldirectord 4.x {@code check_radius} (Perl's
 * Authen::Radius {@code check_pwd}): a RADIUS Access-Request (RFC 2865) over UDP with User-Name
 * {@code login} and User-Password {@code passwd} hidden with {@code secret}; up when the server
 * answers Access-Accept with a valid response authenticator; Access-Reject, a wrong
 * authenticator (wrong secret) or silence is a failure. The request is sent again every
 * {@value #RESEND_MS} ms until the deadline.
 */
final class RadiusCheck extends SocketCheck {
    static final int RESEND_MS = 1000;
    private static final int ACCESS_REQUEST = 1;
    private static final int ACCESS_ACCEPT = 2;
    private static final int ACCESS_REJECT = 3;
    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        byte[] secret = target.secret().orElse("").getBytes(StandardCharsets.UTF_8);
        if (secret.length == 0) {
            throw new CheckFailure("service=radius needs secret");
        }
        int id = RANDOM.nextInt(256);
        byte[] authenticator = new byte[16];
        RANDOM.nextBytes(authenticator);
        byte[] request = accessRequest(id, authenticator, target.login().orElse(""),
                target.password().orElse(""), secret);
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.connect(target.server());
            byte[] answer = UdpExchange.exchange(socket, request, 4096, RESEND_MS, deadline,
                    m -> m.length >= 20 && (m[1] & 0xff) == id); // others answer another request
            judge(answer, authenticator, secret, target.login().orElse(""));
        }
    }

    /**
     * Judges one answer to the Access-Request with {@code authenticator} (a pure function of the
     * bytes the server sent).
     *
     * @param answer        the datagram, as received (at most 4096 bytes)
     * @param authenticator the request's 16-byte authenticator
     * @param secret        the shared secret
     * @param login         the User-Name sent, for the reason
     * @throws CheckFailure unless it is a well-formed Access-Accept with a valid response authenticator
     */
    static void judge(byte[] answer, byte[] authenticator, byte[] secret, String login) throws CheckFailure {
        if (answer.length < 20) {
            throw new CheckFailure("malformed RADIUS answer (" + answer.length + " bytes)");
        }
        int length = ((answer[2] & 0xff) << 8) | (answer[3] & 0xff);
        if (length < 20 || length > answer.length) {
            throw new CheckFailure("malformed RADIUS answer (length " + length + ")");
        }
        byte[] packet = Arrays.copyOf(answer, length);
        if (!validResponse(packet, authenticator, secret)) {
            throw new CheckFailure("RADIUS answer with a wrong authenticator (is secret right?)");
        }
        int code = packet[0] & 0xff;
        if (code == ACCESS_ACCEPT) {
            return;
        }
        throw new CheckFailure(code == ACCESS_REJECT ? "RADIUS Access-Reject for " + login
                : "RADIUS answer code " + code + ", not Access-Accept");
    }

    static byte[] accessRequest(int id, byte[] authenticator, String user, String password, byte[] secret) {
        ByteArrayOutputStream attrs = new ByteArrayOutputStream();
        byte[] name = user.getBytes(StandardCharsets.UTF_8);
        attribute(attrs, 1, Arrays.copyOf(name, Math.min(name.length, 253)));
        attribute(attrs, 2, hidePassword(password.getBytes(StandardCharsets.UTF_8), authenticator, secret));
        byte[] a = attrs.toByteArray();
        int length = 20 + a.length;
        byte[] packet = new byte[length];
        packet[0] = ACCESS_REQUEST;
        packet[1] = (byte) id;
        packet[2] = (byte) (length >> 8);
        packet[3] = (byte) length;
        System.arraycopy(authenticator, 0, packet, 4, 16);
        System.arraycopy(a, 0, packet, 20, a.length);
        return packet;
    }

    private static void attribute(ByteArrayOutputStream out, int type, byte[] value) {
        out.write(type);
        out.write(value.length + 2);
        out.write(value, 0, value.length);
    }

    /** RFC 2865 5.2: the password padded to 16-byte blocks, each XORed with MD5(secret + previous). */
    static byte[] hidePassword(byte[] password, byte[] authenticator, byte[] secret) {
        int blocks = Math.max(1, Math.min(8, (password.length + 15) / 16));
        byte[] padded = Arrays.copyOf(password, blocks * 16);
        byte[] previous = authenticator;
        for (int b = 0; b < blocks; b++) {
            MessageDigest md5 = md5();
            md5.update(secret);
            md5.update(previous);
            byte[] mask = md5.digest();
            for (int i = 0; i < 16; i++) {
                padded[b * 16 + i] ^= mask[i];
            }
            previous = Arrays.copyOfRange(padded, b * 16, b * 16 + 16);
        }
        return padded;
    }

    /** RFC 2865 3: MD5(code + id + length + request authenticator + attributes + secret). */
    static boolean validResponse(byte[] answer, byte[] requestAuthenticator, byte[] secret) {
        MessageDigest md5 = md5();
        md5.update(answer, 0, 4);
        md5.update(requestAuthenticator);
        md5.update(answer, 20, answer.length - 20);
        md5.update(secret);
        return MessageDigest.isEqual(md5.digest(), Arrays.copyOfRange(answer, 4, 20));
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no MD5", e);
        }
    }
}
