package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.jheartbeat.core.auth.AuthKey;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ConfigDiagnostic.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AuthKeysParserTest {
    private static final Path FILE = Path.of("/etc/ha.d/authkeys");

    private static AuthKeysParser.Result parse(String text) {
        return AuthKeysParser.parse(FILE, text);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void readsTheLabFile() {
        AuthKeysParser.Result r = parse("auth 1\n1 sha1 testsecret-0123456\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.authKeys()).contains(AuthKeys.single(1, AuthMethod.SHA1, ascii("testsecret-0123456")));
    }

    @Test
    void readsSeveralKeysCommentsAndLeadingBlanks() {
        AuthKeysParser.Result r = parse("# keys\n\n  auth 3\n\t1 crc\n2 md5 m5key\n3 SHA1 s1key # rotated\n");
        // none of these keys is a secret worth the name: each line says so
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::format).containsExactly(
                "/etc/ha.d/authkeys:4: warning: key 1 is crc, which authenticates nothing: anyone who can send to a"
                        + " heartbeat link can forge messages (standby, hand-overs); crc is refused on network media"
                        + " unless jheartbeat.yaml authkeys: crc_links: lists them; use '1 sha1 KEY' and generate a key"
                        + " with: openssl rand -hex 32",
                "/etc/ha.d/authkeys:5: warning: key 2 is 5 characters long, short enough to be guessed; use at least"
                        + " 16: generate a key with: openssl rand -hex 32",
                "/etc/ha.d/authkeys:6: warning: key 3 is 5 characters long, short enough to be guessed; use at least"
                        + " 16: generate a key with: openssl rand -hex 32");
        AuthKeys keys = r.authKeys().orElseThrow();
        assertThat(keys.signingIndex()).isEqualTo(3);
        assertThat(keys.keys()).isEqualTo(Map.of(
                1, new AuthKey(1, AuthMethod.CRC, new byte[0]),
                2, new AuthKey(2, AuthMethod.MD5, ascii("m5key")),
                3, new AuthKey(3, AuthMethod.SHA1, ascii("s1key"))));
    }

    @Test
    void keyIsOneTokenAndTheRestIsIgnoredWithAWarning() {
        AuthKeysParser.Result r = parse("auth 1\n1 sha1 two-0123456789abcdef words\n");
        assertThat(r.authKeys().orElseThrow().signingKey().key()).isEqualTo(ascii("two-0123456789abcdef"));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "1 sha1 testsecret-0123456                  | 0 | Missing auth directive in keyfile [/etc/ha.d/authkeys]",
            "auth 2\\n1 sha1 testsecret-0123456         | 1 | Auth Key [2] not found in keyfile [/etc/ha.d/authkeys]",
            "auth 16\\n1 sha1 testsecret-0123456        | 1 | Invalid authnum [16] in 'auth' line",
            "auth x\\n1 sha1 testsecret-0123456         | 1 | Invalid authnum [x] in 'auth' line",
            "auth 1\\n1 sha1 testsecret-0123456\\n16 md5 k | 3 | Invalid authnum [16]",
            "auth 1\\n1 sha256 testsecret-0123456       | 2 | Invalid authtype [sha256]",
            "auth 1\\n1 sha1                    | 2 | Auth method [sha1] requires a key",
            "auth 1\\n1 crc # a comment          | 2 | Auth method [crc] doesn't use a key: a '#' after the method is not a comment",
            "1 sha1 testsecret-0123456\\nauth 1         | 2 | Auth Key [1] not found in keyfile [/etc/ha.d/authkeys]: key 1 is on line 1, before this 'auth' line",
            "auth 1\\n1 crc testsecret-0123456          | 2 | Auth method [crc] doesn't use a key",
            "auth 1\\n1                         | 2 | key 1 has no method",
    })
    void errors(String text, int line, String message) {
        AuthKeysParser.Result r = parse(text.strip().replace("\\n", "\n") + "\n");
        assertThat(r.authKeys()).isEmpty();
        assertThat(r.diagnostics()).filteredOn(ConfigDiagnostic::isError).anySatisfy(d -> {
            assertThat(d.line()).isEqualTo(line);
            assertThat(d.message()).startsWith(message);
        });
    }

    @Test
    void aBadKeyLineIsNotAlsoReportedAsAMissingKey() {
        AuthKeysParser.Result r = parse("auth 1\n1 sha1\n");
        assertThat(r.authKeys()).isEmpty();
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::line).containsExactly(2);
    }

    @Test
    void redefinedKeyWarnsAndTheLastWins() {
        AuthKeysParser.Result r = parse("auth 1\n1 sha1 old-0123456789abcdef\n1 sha1 new-0123456789abcdef\n");
        assertThat(r.authKeys().orElseThrow().signingKey().key()).isEqualTo(ascii("new-0123456789abcdef"));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> assertThat(d.line()).isEqualTo(3));
    }

    @Test
    void keyBytesArePreserved() {
        String latin1 = new String(new byte[] {'k', (byte) 0xe9, 'y'}, StandardCharsets.ISO_8859_1);
        AuthKeysParser.Result r = parse("auth 1\n1 sha1 " + latin1 + "\n");
        assertThat(r.authKeys().orElseThrow().signingKey().key()).containsExactly('k', 0xe9, 'y');
    }

    @Test
    void crlfIsAWarningAndTheCrIsNotPartOfTheKey() {
        AuthKeysParser.Result r = parse("auth 1\r\n1 sha1 testsecret-0123456\r\n");
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isFalse();
            assertThat(d.line()).isEqualTo(1);
            assertThat(d.message()).contains("CRLF");
        });
        assertThat(r.authKeys().orElseThrow().signingKey().key()).isEqualTo("testsecret-0123456".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void securityAcceptsMode600And400OwnedByRoot(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("authkeys"), "auth 1\n1 crc\n");
        for (String mode : new String[] {"rw-------", "r--------"}) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
            assertThat(AuthKeysParser.checkSecurity(file)).isEmpty();
        }
    }

    @Test
    void securityRejectsAnyGroupOrOtherBit(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("authkeys"), "auth 1\n1 crc\n");
        for (String mode : new String[] {"rw-r--r--", "rw----r--", "rw--w----", "rw------x"}) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
            assertThat(AuthKeysParser.checkSecurity(file)).as(mode).singleElement()
                    .satisfies(d -> assertThat(d.isError()).isTrue());
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(AuthKeysParser.checkSecurity(file)).singleElement().satisfies(d -> {
            assertThat(d.line()).isZero();
            assertThat(d.message()).isEqualTo("authkeys is mode 644; it must be 600 and owned by root: chmod 600 "
                    + file + "; chown root " + file);
        });
    }

    @Test
    void securityRejectsANonRootOwner(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("authkeys"), "auth 1\n1 crc\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.setOwner(file, file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        assertThat(AuthKeysParser.checkSecurity(file)).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.message()).startsWith("authkeys is mode 600 owned by uid 65534; it must be 600 and owned by root");
        });
    }

    @Test
    void securityOfAMissingFileIsAnError(@TempDir Path dir) {
        assertThat(AuthKeysParser.checkSecurity(dir.resolve("authkeys"))).singleElement()
                .satisfies(d -> assertThat(d.isError()).isTrue());
    }

    @Test
    void authAfterItsKeyLineIsNotFoundAsInHeartbeatWithTheFix() {
        AuthKeysParser.Result r = parse("# keys\n1 sha1 testsecret-0123456\nauth 1\n");
        assertThat(r.authKeys()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(3);
            assertThat(d.message()).isEqualTo("Auth Key [1] not found in keyfile [/etc/ha.d/authkeys]: key 1 is on"
                    + " line 2, before this 'auth' line, and Heartbeat only finds a key that comes after it: move"
                    + " 'auth 1' to the top of the file");
        });
    }

    @Test
    void aHashAfterTheMethodIsTheKeyAsInHeartbeatWithAWarning() {
        AuthKeysParser.Result r = parse("auth 1\n1 sha1 # shared secret\n");
        assertThat(r.authKeys().orElseThrow().signingKey().key()).as("sscanf %s reads the '#'").containsExactly('#');
        assertThat(r.diagnostics()).filteredOn(d -> !d.message().contains("short enough")).singleElement().satisfies(d -> {
            assertThat(d.isError()).isFalse();
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).contains("a '#' after the method is not a comment in authkeys");
        });
    }

    @Test
    void aHashAfterCrcDropsTheKeyLineSoItsKeyIsNotFoundOneMessage() {
        AuthKeysParser.Result r = parse("auth 1\n1 crc # checksum only\n");
        assertThat(r.authKeys()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).contains("key 1 is not found; remove the '#...' text");
        });
    }

    @Test
    void aLaterAuthWithoutAKeyAfterItKeepsTheEarlierSigningKeyAsHeartbeat() {
        AuthKeysParser.Result r = parse("auth 1\n1 sha1 one\n2 sha1 two\nauth 2\n");
        assertThat(r.authKeys().orElseThrow().signingIndex()).isEqualTo(1);
        assertThat(r.diagnostics()).filteredOn(d -> d.line() == 4).extracting(ConfigDiagnostic::message)
                .anySatisfy(m -> assertThat(m).contains("Heartbeat keeps signing with key 1"));
    }

    @Test
    void theExampleKeyIsRefusedAndShortKeysWarnedAbout() {
        AuthKeysParser.Result example = parse("auth 1\n1 sha1 " + AuthKeysParser.EXAMPLE_KEY + "\n");
        assertThat(example.authKeys()).isEmpty();
        assertThat(example.diagnostics()).extracting(ConfigDiagnostic::format).containsExactly(
                "/etc/ha.d/authkeys:2: key 1 is the example key of authkeys.example, which anyone can read; generate"
                        + " a key with: openssl rand -hex 32 and write it on both nodes");
        AuthKeysParser.Result shortKey = parse("auth 1\n1 md5 0123456789abcde\n");
        assertThat(shortKey.authKeys()).isPresent();
        assertThat(shortKey.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isFalse();
            assertThat(d.message()).startsWith("key 1 is 15 characters long, short enough to be guessed");
        });
        assertThat(parse("auth 1\n1 md5 0123456789abcdef\n").diagnostics()).isEmpty();
    }
}
