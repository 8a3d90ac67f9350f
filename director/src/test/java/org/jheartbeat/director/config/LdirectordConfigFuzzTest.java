package org.jheartbeat.director.config;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;

/**
 * Fuzzer of the ldirectord.cf parser (an admin edits the file by hand; its {@code request},
 * {@code receive} and command values reach the checks), grown from the seed's ldirectord.cf and the
 * forms {@link LdirectordParserTest} uses: every check type and service, fwmark and IPv6 services,
 * fallbacks, quoted values. Names resolve through a fixed table (no DNS). Properties: the parser
 * never throws (its contract: every problem is a {@link ConfigDiagnostic}); it gives a config or an
 * error; every diagnostic names the file given and a line inside the text (0 for the whole file),
 * prints as {@code file:line: message} and its message is one line. Cases: {@code -Djhb.fuzz.tries}
 * (docs/fuzzing.md).
 */
class LdirectordConfigFuzzTest {
    static final Path FILE = Path.of("/etc/ha.d/ldirectord.cf");
    private static final LdirectordParser PARSER = new LdirectordParser(name -> Optional.ofNullable(Map.of(
            "web1", "198.18.0.21", "vip", "198.18.0.100", "localhost", "127.0.0.1").get(name))
            .map(LdirectordConfigFuzzTest::address));

    static final List<byte[]> SEEDS = seeds(
            "checktimeout=3\nnegotiatetimeout=5\nconnecttimeout=2\ncheckinterval=1\nfailurecount=2\nautoreload=no\n"
                    + "callback=\"/usr/local/bin/notify\"\nfallback=127.0.0.1:80 gate\nlogfile=\"local0\"\n"
                    + "emailalert=\"root@localhost\"\nemailalertfreq=3600\nemailalertstatus=all\nquiescent=yes\n"
                    + "cleanstop=no\nfork=no\nsupervised=no\nreadquiescent=no\nmaintenancedir=/etc/ha.d/maintenance\n",
            "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate 5\n\treal=web1:http masq 2 \"/custom\" \"ok\"\n"
                    + "\tfallback=127.0.0.1:80 gate\n\tservice=http\n\tcheckport=8080\n\trequest=\"/index.html\"\n"
                    + "\treceive=\"Test Page\"\n\tvirtualhost=www.example.test\n\thttpmethod=HEAD\n\tscheduler=wrr\n"
                    + "\tpersistent=600\n\tnetmask=255.255.255.0\n\tprotocol=tcp\n\tchecktype=negotiate\n"
                    + "\tquiescent=no\n",
            "virtual=198.18.0.100:53\n    real=198.18.0.21:53 gate\n    real=198.18.0.22:53 gate\n    service=dns\n"
                    + "    request=\"www.example.test\"\n    receive=\"198.18.0.10\"\n    protocol=udp\n    ops=yes\n"
                    + "    checktype=5\n",
            "virtual=7\n    real=198.18.0.21 gate\n    protocol=fwm\n    checktype=external\n"
                    + "    checkcommand=\"/usr/local/bin/check --fast\"\n    scheduler=sh\n",
            "virtual=[2001:db8::100]:443\n    real=[2001:db8::21]:443 masq\n    service=https\n    checktype=combined\n"
                    + "virtual=198.18.0.100:3306\n    real=198.18.0.21:3306 ipip\n    service=mysql\n    login=\"web\"\n"
                    + "    passwd=\"pw\"\n    database=\"shop\"\n    request=\"SELECT 1\"\n",
            "virtual=198.18.0.100:1812\n    real=198.18.0.21:1812 gate\n    service=radius\n    protocol=udp\n"
                    + "    secret=\"s3cret\"\n    login=\"u\"\n    passwd=\"p\"\n"
                    + "virtual=198.18.0.100:389\n    real=198.18.0.21:389 gate\n    service=ldap\n"
                    + "    request=\"/dc=example,dc=test\"\n    receive=\"dc=example\"\n    checktype=ping\n"
                    + "    checkcount=3\n# comment\n\nvirtual=vip:25\n    real=web1:25 gate\n    service=smtp\n");

    private static InetAddress address(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<byte[]> seeds(String... texts) {
        List<byte[]> out = new ArrayList<>();
        try (InputStream in = LdirectordConfigFuzzTest.class.getResourceAsStream("/org/jheartbeat/director/seed-ldirectord.cf")) {
            out.add(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String t : texts) {
            out.add(t.getBytes(ISO_8859_1));
        }
        return List.copyOf(out);
    }

    @Provide
    Arbitrary<Mutant> ldirectordCf() {
        return Mutations.of(SEEDS);
    }

    @Property
    void ldirectordParserNeverThrowsAndNamesFileAndLine(@ForAll("ldirectordCf") Mutant m) {
        LdirectordParser.Result r = PARSER.parse(FILE, m.text());
        boolean errors = r.diagnostics().stream().anyMatch(ConfigDiagnostic::isError);
        assertThat(r.config().isPresent() != errors).as("a config exactly when there is no error: %s", m).isTrue();
        int lines = m.text().split("\n", -1).length;
        for (ConfigDiagnostic d : r.diagnostics()) {
            assertThat(d.file()).as("%s: %s", d, m).isEqualTo(FILE);
            assertThat(d.line()).as("%s: %s", d, m).isBetween(0, Math.max(1, lines));
            assertThat(d.format()).as("%s", m).startsWith(FILE + ":" + d.line() + ": ");
            assertThat(d.message()).as("%s", m).isNotBlank().doesNotContain("\n").doesNotContain("\r");
        }
    }
}
