package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * {@code service=sip} negotiate check, as ldirectord 4.x {@code check_sip}: an {@code OPTIONS
 * sip:LOGIN} request (LOGIN = {@code login}, default {@code ldirectord@localhost}), over TCP when
 * the virtual service's protocol is tcp and over UDP otherwise; up when the status line of the
 * answer starts with {@code SIP/2.0 200 OK}. Over UDP the request is sent again every
 * {@value #RESEND_MS} ms until the deadline.
 */
final class SipCheck extends SocketCheck {
    static final int RESEND_MS = 500;
    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        String login = target.login().filter(l -> !l.isEmpty()).orElse("ldirectord@localhost");
        boolean tcp = "tcp".equals(target.protocol());
        String status;
        if (tcp) {
            try (Conversation c = Conversation.open(target.server(), deadline, false, null)) {
                InetSocketAddress local = (InetSocketAddress) c.socket().getLocalSocketAddress();
                c.send(request(login, "TCP", local));
                status = c.readLine();
            }
        } else {
            status = overUdp(target, deadline, login);
        }
        if (!status.startsWith("SIP/2.0 200 OK")) {
            throw new CheckFailure("SIP OPTIONS answered \"" + quote(status) + "\"");
        }
    }

    private static String overUdp(CheckTarget target, Deadline deadline, String login) throws IOException {
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.connect(target.server());
            InetSocketAddress local = (InetSocketAddress) socket.getLocalSocketAddress();
            byte[] message = request(login, "UDP", local).getBytes(StandardCharsets.UTF_8);
            byte[] answer = UdpExchange.exchange(socket, message, 8192, RESEND_MS, deadline, m -> true);
            String text = new String(answer, StandardCharsets.UTF_8);
            int end = text.indexOf('\n');
            String first = end >= 0 ? text.substring(0, end) : text;
            return first.endsWith("\r") ? first.substring(0, first.length() - 1) : first;
        }
    }

    static String request(String login, String transport, InetSocketAddress local) {
        String host = HttpCheck.hostLiteral(local);
        String callId = Long.toHexString(RANDOM.nextLong());
        return "OPTIONS sip:" + login + " SIP/2.0\r\n"
                + "Via: SIP/2.0/" + transport + " " + host + ":" + local.getPort() + ";branch=z9hG4bK"
                + Long.toHexString(RANDOM.nextLong()) + "\r\n"
                + "Max-Forwards: 70\r\n"
                + "To: <sip:" + login + ">\r\n"
                + "From: <sip:" + login + ">;tag=" + Integer.toHexString(RANDOM.nextInt()) + "\r\n"
                + "Call-ID: " + callId + "\r\n"
                + "CSeq: 1 OPTIONS\r\n"
                + "Contact: <sip:" + login + ">\r\n"
                + "Accept: application/sdp\r\n"
                + "Content-Length: 0\r\n\r\n";
    }
}
