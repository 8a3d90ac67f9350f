package org.jheartbeat.director.check;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * LDAP messages in a byte stream, for replaying a server's answer in turn (tests only): the JDK's
 * LDAP client drops a response whose request it has not sent yet, so an answer sent all at once
 * reaches only its first message.
 */
final class BerStream {
    /** Largest request read from the check (JNDI's are a few hundred bytes). */
    private static final int MAX_REQUEST = 64 * 1024;
    /** How long {@link #inTurn} waits for the check's next request: 50 ms. */
    static final int NEXT_REQUEST_MS = 50;

    private BerStream() {
    }

    /**
     * The stream cut into responses: each group runs up to and including the first message that is
     * not a search entry (0x64) or reference (0x73), i.e. the one that ends a request's answer. A tail
     * that does not parse as BER stays in the last group, so the groups together are the stream.
     */
    static List<byte[]> groups(byte[] stream) {
        List<byte[]> groups = new ArrayList<>();
        int start = 0;
        int p = 0;
        while (p < stream.length) {
            int end = end(stream, p);
            if (end < 0) {
                break;
            }
            int op = opTag(stream, p, end);
            p = end;
            if (op != 0x64 && op != 0x73) {
                groups.add(Arrays.copyOfRange(stream, start, p));
                start = p;
            }
        }
        if (start < stream.length) {
            groups.add(Arrays.copyOfRange(stream, start, stream.length));
        }
        return groups;
    }

    /** The end offset of the element starting at {@code p}, or -1 if it is cut or malformed. */
    private static int end(byte[] s, int p) {
        if (p + 2 > s.length) {
            return -1;
        }
        int first = s[p + 1] & 0xff;
        int header = 2;
        long length = first;
        if (first >= 0x80) {
            int n = first & 0x7f;
            if (n == 0 || n > 4 || p + 2 + n > s.length) {
                return -1;
            }
            length = 0;
            for (int i = 0; i < n; i++) {
                length = length << 8 | (s[p + 2 + i] & 0xff);
            }
            header += n;
        }
        long end = p + header + length;
        return end <= s.length ? (int) end : -1;
    }

    /** The tag of the protocol op after the messageID, or -1. */
    private static int opTag(byte[] s, int p, int end) {
        int first = s[p + 1] & 0xff;
        int q = p + 2 + (first >= 0x80 ? first & 0x7f : 0);
        if (q + 2 > end) {
            return -1;
        }
        int idEnd = q + 2 + (s[q + 1] & 0xff);
        return idEnd < end ? s[idEnd] & 0xff : -1;
    }

    /** Reads one BER element of the check's, or null at the end of the stream (or a malformed one). */
    static byte[] read(InputStream in) throws IOException {
        int tag = in.read();
        int first = in.read();
        if (tag < 0 || first < 0) {
            return null;
        }
        ByteArrayOutputStream element = new ByteArrayOutputStream();
        element.write(tag);
        element.write(first);
        int length = first;
        if (first >= 0x80) {
            int n = first & 0x7f;
            if (n == 0 || n > 3) {
                return null;
            }
            length = 0;
            for (int i = 0; i < n; i++) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                element.write(b);
                length = length << 8 | b;
            }
        }
        if (length > MAX_REQUEST) {
            return null;
        }
        byte[] body = in.readNBytes(length);
        element.write(body);
        return body.length == length ? element.toByteArray() : null;
    }

    /**
     * Answers each request of the check with the next group of {@code answer} until the groups run
     * out or the check stops (end of stream, unbind), then returns what is left for the caller to send.
     * After the first group a request must come within {@value #NEXT_REQUEST_MS} ms, else the rest is
     * returned at once: a mutated message id leaves the check waiting for an answer it dropped, and
     * without this each such case would last the check's whole timeout. (A slower check only gets the
     * rest at once, as before; no verdict depends on it.)
     */
    static byte[] inTurn(Socket client, byte[] answer) throws IOException {
        InputStream in = client.getInputStream();
        OutputStream out = client.getOutputStream();
        int before = client.getSoTimeout();
        List<byte[]> groups = groups(answer);
        int next = 0;
        try {
            while (next < groups.size()) {
                byte[] request = read(in);
                if (request == null || opTag(request, 0, request.length) == 0x42) {
                    break;
                }
                out.write(groups.get(next++));
                out.flush();
                client.setSoTimeout(NEXT_REQUEST_MS);
            }
        } catch (SocketTimeoutException e) {
            // the check waits for something it will not get: send the rest and end
        } finally {
            client.setSoTimeout(before);
        }
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        for (int i = next; i < groups.size(); i++) {
            rest.write(groups.get(i));
        }
        return rest.toByteArray();
    }
}
