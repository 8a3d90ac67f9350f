package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The ldap check (JNDI) against a minimal scripted LDAPv3 server on loopback that answers a bind
 * (success for cn=probe / "right", else invalidCredentials) and a search with the given entries.
 */
class LdapCheckTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static ScriptedServer ldap(String... entries) throws IOException {
        return ldap(new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress()), entries);
    }

    /**
     * The scripted LDAP server on {@code socket} (a TLS one for ldaps); {@code seen} records the operation tag of
     * each request in hex (60 bind, 63 search, 42 unbind).
     */
    static ScriptedServer ldap(java.net.ServerSocket socket, String... entries) {
        ScriptedServer[] self = new ScriptedServer[1];
        self[0] = new ScriptedServer(socket, (client, in, out) -> {
            while (true) {
                byte[] message = readElement(in);
                if (message == null) {
                    return;
                }
                // SEQUENCE { INTEGER id, [APPLICATION n] op ... }
                int at = 1 + lengthBytes(message, 1);
                int idLength = message[at + 1];
                int id = 0;
                for (int i = 0; i < idLength; i++) {
                    id = (id << 8) | (message[at + 2 + i] & 0xff);
                }
                int op = message[at + 2 + idLength] & 0xff;
                String text = new String(message, StandardCharsets.ISO_8859_1);
                self[0].seen.add(Integer.toHexString(op));
                if (op == 0x60) { // BindRequest
                    boolean ok = text.contains("cn=probe") && text.contains("right") || !text.contains("cn=");
                    out.write(message(id, 0x61, result(ok ? 0 : 49)));
                } else if (op == 0x63) { // SearchRequest
                    for (String dn : entries) {
                        ByteArrayOutputStream entry = new ByteArrayOutputStream();
                        entry.write(tlv(0x04, dn.getBytes(StandardCharsets.UTF_8)));
                        entry.write(tlv(0x30, new byte[0]));
                        out.write(message(id, 0x64, entry.toByteArray()));
                    }
                    out.write(message(id, 0x65, result(0)));
                } else if (op == 0x42) { // UnbindRequest
                    return;
                }
                out.flush();
            }
        });
        return self[0];
    }

    private static byte[] result(int code) {
        return new byte[] {0x0a, 0x01, (byte) code, 0x04, 0x00, 0x04, 0x00};
    }

    private static byte[] message(int id, int op, byte[] body) throws IOException {
        ByteArrayOutputStream inner = new ByteArrayOutputStream();
        inner.write(tlv(0x02, new byte[] {(byte) id}));
        inner.write(tlv(op, body));
        return tlv(0x30, inner.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        if (value.length < 128) {
            out.write(value.length);
        } else {
            out.write(0x82);
            out.write(value.length >> 8);
            out.write(value.length);
        }
        out.write(value, 0, value.length);
        return out.toByteArray();
    }

    private static int lengthBytes(byte[] m, int at) {
        int first = m[at] & 0xff;
        return first < 128 ? 1 : 1 + (first & 0x7f);
    }

    /** One BER element (tag, length, value), or null at end of stream. */
    private static byte[] readElement(InputStream in) throws IOException {
        int tag = in.read();
        if (tag < 0) {
            return null;
        }
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write(tag);
        int first = in.read();
        all.write(first);
        int length = first;
        if (first >= 128) {
            length = 0;
            for (int i = 0; i < (first & 0x7f); i++) {
                int b = in.read();
                all.write(b);
                length = (length << 8) | b;
            }
        }
        all.write(in.readNBytes(length));
        return all.toByteArray();
    }

    private static CheckResult check(CheckTarget target) throws Exception {
        return Checks.forService("negotiate", "ldap").check(target, TIMEOUT);
    }

    @Test
    void oneEntryWhoseDnMatchesReceiveIsUp() throws Exception {
        try (ScriptedServer s = ldap("dc=example,dc=test")) {
            CheckResult anonymous = check(s.target().withRequest("/dc=example,dc=test").withReceive("dc=example"));
            assertThat(anonymous.up()).as(anonymous.reason()).isTrue();
            CheckResult bound = check(s.target().withRequest("/dc=example,dc=test").withLogin("cn=probe", "right"));
            assertThat(bound.up()).as(bound.reason()).isTrue();
            assertThat(s.seen).contains("60", "63");
        }
    }

    @Test
    void aRefusedBindAWrongDnAndAWrongCountAreDownWithTheReason() throws Exception {
        try (ScriptedServer s = ldap("dc=example,dc=test")) {
            CheckResult refused = check(s.target().withRequest("/dc=example,dc=test").withLogin("cn=probe", "wrong"));
            assertThat(refused.up()).isFalse();
            assertThat(refused.reason()).contains("LDAP bind as cn=probe refused");
            CheckResult mismatch = check(s.target().withRequest("/dc=example,dc=test").withReceive("ou=other"));
            assertThat(mismatch.up()).isFalse();
            assertThat(mismatch.reason()).contains("does not match receive");
        }
        try (ScriptedServer s = ldap()) {
            CheckResult none = check(s.target().withRequest("/dc=example,dc=test"));
            assertThat(none.up()).isFalse();
            assertThat(none.reason()).contains("gave 0 entries, not 1");
        }
    }

}
