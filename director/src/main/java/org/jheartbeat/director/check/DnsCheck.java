package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.DatagramSocket;
import java.security.SecureRandom;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code service=dns} negotiate check, as ldirectord 4.x {@code check_dns}: asks the real server
 * for {@code request} (an A query of a name, or a PTR query when {@code request} is an address),
 * over TCP when the virtual service's protocol is tcp and over UDP otherwise (a truncated UDP
 * answer is asked again over TCP); up when an A record's address or a PTR record's name equals
 * {@code receive} (exact text, as ldirectord compares; names without the final dot, case
 * ignored). Over UDP the query is sent again every {@value #RESEND_MS} ms until the deadline;
 * answers from other addresses or with another id are ignored.
 *
 * <p>Difference from ldirectord, on purpose: with an empty {@code receive} ldirectord can never
 * succeed; here any A or PTR answer then counts. A hand-rolled codec ({@link DnsWire}) because
 * the JDK's JNDI DNS provider cannot be pointed at one server with a bounded total time and
 * no allowed library does DNS.
 */
final class DnsCheck extends SocketCheck {
    static final int RESEND_MS = 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        String request = requestWithoutSlash(target);
        if (request.isEmpty()) {
            throw new CheckFailure("service=dns needs request (the name or address to look up)");
        }
        Object[] q = DnsWire.question(request);
        String name = (String) q[0];
        int type = (Integer) q[1];
        int id = RANDOM.nextInt(0x10000);
        byte[] query;
        try {
            query = DnsWire.query(id, name, type);
        } catch (IllegalArgumentException e) {
            throw new CheckFailure(e.getMessage());
        }
        DnsWire.Response response = "tcp".equals(target.protocol()) ? overTcp(target, deadline, query)
                : overUdp(target, deadline, query, id);
        if (response.truncated() && !"tcp".equals(target.protocol())) {
            response = overTcp(target, deadline, query);
        }
        if (response.id() != id) {
            throw new CheckFailure("DNS answer with id " + response.id() + " to query " + id);
        }
        if (response.rcode() != 0) {
            throw new CheckFailure("DNS " + rcodeName(response.rcode()) + " for " + name);
        }
        List<DnsWire.Answer> answers = response.answers().stream()
                .filter(a -> a.type() == (type == DnsWire.TYPE_PTR ? DnsWire.TYPE_PTR : DnsWire.TYPE_A))
                .collect(Collectors.toList());
        if (answers.isEmpty()) {
            throw new CheckFailure("no " + (type == DnsWire.TYPE_PTR ? "PTR" : "A") + " record for " + name);
        }
        String receive = target.receive().orElse("").strip();
        if (receive.isEmpty()) {
            return;
        }
        String wanted = receive.endsWith(".") ? receive.substring(0, receive.length() - 1) : receive;
        for (DnsWire.Answer a : answers) {
            if (a.value().equalsIgnoreCase(wanted)) {
                return;
            }
        }
        throw new CheckFailure("DNS answer for " + name + " is "
                + answers.stream().map(DnsWire.Answer::value).collect(Collectors.joining(", "))
                + ", not " + receive);
    }

    private static DnsWire.Response overUdp(CheckTarget target, Deadline deadline, byte[] query, int id)
            throws IOException {
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.connect(target.server());
            byte[] message = UdpExchange.exchange(socket, query, 4096, RESEND_MS, deadline,
                    m -> m.length >= 2 && (((m[0] & 0xff) << 8) | (m[1] & 0xff)) == id);
            try {
                return DnsWire.decode(message);
            } catch (IllegalArgumentException e) {
                throw new IOException("malformed DNS answer: " + e.getMessage());
            }
        }
    }

    private static DnsWire.Response overTcp(CheckTarget target, Deadline deadline, byte[] query)
            throws IOException {
        try (Conversation c = Conversation.open(target.server(), deadline, false, null)) {
            byte[] framed = new byte[query.length + 2];
            framed[0] = (byte) (query.length >> 8);
            framed[1] = (byte) query.length;
            System.arraycopy(query, 0, framed, 2, query.length);
            c.send(framed);
            byte[] length = c.readExactly(2);
            int n = ((length[0] & 0xff) << 8) | (length[1] & 0xff);
            try {
                return DnsWire.decode(c.readExactly(n));
            } catch (IllegalArgumentException e) {
                throw new IOException("malformed DNS answer: " + e.getMessage());
            }
        }
    }

    private static String rcodeName(int rcode) {
        return switch (rcode) {
            case 1 -> "FORMERR";
            case 2 -> "SERVFAIL";
            case 3 -> "NXDOMAIN";
            case 4 -> "NOTIMP";
            case 5 -> "REFUSED";
            default -> "rcode " + rcode;
        };
    }
}
