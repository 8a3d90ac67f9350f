package org.jheartbeat.director.check;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A minimal DNS message encoder and bounded decoder (RFC 1035) for the dns check: one question
 * out, the answer section's A, AAAA and PTR records back. Every length and offset is checked
 * against the message; compression pointers may only point backwards and at most
 * {@value #MAX_POINTERS} are followed per name, so a hostile answer cannot loop or read outside
 * the packet ({@link IllegalArgumentException} with the reason instead).
 */
final class DnsWire {
    static final int TYPE_A = 1;
    static final int TYPE_PTR = 12;
    static final int TYPE_AAAA = 28;
    private static final int MAX_POINTERS = 32;
    private static final int MAX_NAME = 255;
    private static final int MAX_RECORDS = 512;

    private DnsWire() {
    }

    /** One answer record, its value as text (dotted address, or a name without the final dot). */
    record Answer(int type, String value) {
    }

    /** A decoded response: id, flags and the answers of interest. */
    record Response(int id, boolean truncated, int rcode, List<Answer> answers) {
    }

    /**
     * The query message: recursion desired, one question of class IN.
     *
     * @throws IllegalArgumentException if the name has a label over 63 bytes or is over 255 bytes
     */
    static byte[] query(int id, String name, int type) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(id >> 8);
        out.write(id);
        out.write(0x01); // RD
        out.write(0x00);
        out.write(0);
        out.write(1); // QDCOUNT
        for (int i = 0; i < 6; i++) {
            out.write(0); // AN, NS, AR counts
        }
        writeName(out, name);
        out.write(type >> 8);
        out.write(type);
        out.write(0);
        out.write(1); // class IN
        return out.toByteArray();
    }

    private static void writeName(ByteArrayOutputStream out, String name) {
        String trimmed = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        int total = 1;
        if (!trimmed.isEmpty()) {
            for (String label : trimmed.split("\\.", -1)) {
                byte[] bytes = label.getBytes(StandardCharsets.US_ASCII);
                if (bytes.length == 0 || bytes.length > 63) {
                    throw new IllegalArgumentException("DNS name \"" + name + "\" has an empty or over-long label");
                }
                total += bytes.length + 1;
                out.write(bytes.length);
                out.write(bytes, 0, bytes.length);
            }
        }
        if (total > MAX_NAME) {
            throw new IllegalArgumentException("DNS name \"" + name + "\" is longer than 255 bytes");
        }
        out.write(0);
    }

    /**
     * The name to ask and the type: a PTR query of the reverse name for an IPv4 or IPv6 literal
     * (as Perl's Net::DNS does for an address), else an A query of the name.
     */
    static Object[] question(String request) {
        String r = request.strip();
        if (Tls.isAddressLiteral(r)) {
            try {
                byte[] a = InetAddress.getByName(r).getAddress(); // a literal: no lookup
                StringBuilder sb = new StringBuilder();
                if (a.length == 4) {
                    for (int i = 3; i >= 0; i--) {
                        sb.append(a[i] & 0xff).append('.');
                    }
                    sb.append("in-addr.arpa");
                } else {
                    for (int i = a.length - 1; i >= 0; i--) {
                        sb.append(Character.forDigit(a[i] & 0xf, 16)).append('.')
                                .append(Character.forDigit((a[i] >> 4) & 0xf, 16)).append('.');
                    }
                    sb.append("ip6.arpa");
                }
                return new Object[] {sb.toString(), TYPE_PTR};
            } catch (UnknownHostException e) {
                // not a literal after all: ask for it as a name
            }
        }
        return new Object[] {r, TYPE_A};
    }

    /**
     * Decodes a response.
     *
     * @throws IllegalArgumentException if the message is malformed (truncated, bad pointer …)
     */
    static Response decode(byte[] m) {
        need(m, 0, 12);
        int id = u16(m, 0);
        int flags = u16(m, 2);
        if ((flags & 0x8000) == 0) {
            throw new IllegalArgumentException("a DNS query, not a response");
        }
        boolean truncated = (flags & 0x0200) != 0;
        int rcode = flags & 0x000f;
        int qd = u16(m, 4);
        int an = u16(m, 6);
        if (qd + an > MAX_RECORDS) {
            throw new IllegalArgumentException("too many records in a DNS response: " + (qd + an));
        }
        int at = 12;
        for (int i = 0; i < qd; i++) {
            at = skipName(m, at);
            need(m, at, 4);
            at += 4;
        }
        List<Answer> answers = new ArrayList<>();
        for (int i = 0; i < an; i++) {
            at = skipName(m, at);
            need(m, at, 10);
            int type = u16(m, at);
            int length = u16(m, at + 8);
            int data = at + 10;
            need(m, data, length);
            if (type == TYPE_A && length == 4) {
                answers.add(new Answer(type, (m[data] & 0xff) + "." + (m[data + 1] & 0xff) + "."
                        + (m[data + 2] & 0xff) + "." + (m[data + 3] & 0xff)));
            } else if (type == TYPE_AAAA && length == 16) {
                byte[] a = new byte[16];
                System.arraycopy(m, data, a, 0, 16);
                try {
                    answers.add(new Answer(type, InetAddress.getByAddress(a).getHostAddress()));
                } catch (UnknownHostException e) {
                    throw new IllegalArgumentException("bad AAAA record");
                }
            } else if (type == TYPE_PTR) {
                String name = readName(m, data);
                answers.add(new Answer(type, name));
            }
            at = data + length;
        }
        return new Response(id, truncated, rcode, answers);
    }

    private static int skipName(byte[] m, int at) {
        int pos = at;
        while (true) {
            need(m, pos, 1);
            int len = m[pos] & 0xff;
            if (len == 0) {
                return pos + 1;
            }
            if ((len & 0xc0) == 0xc0) {
                need(m, pos, 2);
                return pos + 2;
            }
            if ((len & 0xc0) != 0) {
                throw new IllegalArgumentException("bad DNS label type at offset " + pos);
            }
            pos += 1 + len;
        }
    }

    static String readName(byte[] m, int at) {
        StringBuilder name = new StringBuilder();
        int pos = at;
        int jumps = 0;
        while (true) {
            need(m, pos, 1);
            int len = m[pos] & 0xff;
            if (len == 0) {
                break;
            }
            if ((len & 0xc0) == 0xc0) {
                need(m, pos, 2);
                int target = ((len & 0x3f) << 8) | (m[pos + 1] & 0xff);
                if (target >= pos || ++jumps > MAX_POINTERS) {
                    throw new IllegalArgumentException("bad DNS compression pointer at offset " + pos);
                }
                pos = target;
                continue;
            }
            if ((len & 0xc0) != 0) {
                throw new IllegalArgumentException("bad DNS label type at offset " + pos);
            }
            need(m, pos + 1, len);
            if (name.length() > 0) {
                name.append('.');
            }
            name.append(new String(m, pos + 1, len, StandardCharsets.ISO_8859_1));
            if (name.length() > MAX_NAME) {
                throw new IllegalArgumentException("DNS name longer than 255 bytes");
            }
            pos += 1 + len;
        }
        return name.toString().toLowerCase(Locale.ROOT);
    }

    private static int u16(byte[] m, int at) {
        return ((m[at] & 0xff) << 8) | (m[at + 1] & 0xff);
    }

    private static void need(byte[] m, int at, int n) {
        if (at < 0 || n < 0 || at + n > m.length) {
            throw new IllegalArgumentException("DNS message cut short at offset " + at + " (length " + m.length + ")");
        }
    }
}
