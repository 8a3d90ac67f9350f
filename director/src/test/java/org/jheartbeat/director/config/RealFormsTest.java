package org.jheartbeat.director.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every {@code real=} form ldirectord's reader accepts, and the near misses it refuses, as a table. The
 * forms follow ldirectord's {@code _ld_read_config_real_resolve} and {@code add_real_server} as
 * {@code shared/facts/lvs.md} §3.4 describes them: {@code HOST[->HOST2][:PORT]}, host and port names,
 * the method word, then the weight, which ldirectord takes as the first number after a blank (so the
 * ipvsadm spelling {@code -w 5} reads as 5 and {@code -w5} is refused), then the quoted request and
 * receive separated by a comma or a blank, and {@code l:N}/{@code u:N}.
 */
class RealFormsTest {
    private static final Path FILE = Path.of("/etc/ha.d/ldirectord.cf");
    /** Host names resolve only through this table: the test never asks DNS. */
    private final LdirectordParser parser = new LdirectordParser(name -> Optional.ofNullable(Map.of(
            "web1", "198.18.0.21", "web2.example.org", "198.18.0.22", "web-3", "198.18.0.23").get(name))
            .map(RealFormsTest::addr));

    private static InetAddress addr(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One real line in a virtual of the given header; the reals it gives, one per line, as text. */
    private String reals(String virtual, String real) {
        LdirectordParser.Result r = parser.parse(FILE, virtual + "\n    real=" + real + "\n");
        List<ConfigDiagnostic> errors = r.diagnostics().stream().filter(ConfigDiagnostic::isError).toList();
        assertThat(errors).as("errors for real=%s", real).isEmpty();
        return r.config().orElseThrow().virtuals().get(0).reals().stream()
                .map(x -> x.endpoint() + " " + x.forward().configName() + " w" + x.weight()
                        + x.request().map(q -> " req=" + q).orElse("") + x.receive().map(q -> " rcv=" + q).orElse("")
                        + (x.lowerThreshold() > 0 ? " l" + x.lowerThreshold() : "")
                        + (x.upperThreshold() > 0 ? " u" + x.upperThreshold() : ""))
                .collect(Collectors.joining(" ; "));
    }

    @ParameterizedTest(name = "real={1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate                      | 198.18.0.21:80 gate w1
        virtual=198.18.0.100:80   | 198.18.0.21 gate                         | 198.18.0.21:80 gate w1
        virtual=198.18.0.100:80   | web1:80 gate                             | 198.18.0.21:80 gate w1
        virtual=198.18.0.100:80   | web2.example.org:http gate               | 198.18.0.22:80 gate w1
        virtual=198.18.0.100:80   | web-3:www gate                           | 198.18.0.23:80 gate w1
        virtual=198.18.0.100:8080 | 198.18.0.21:webcache masq                | 198.18.0.21:8080 masq w1
        virtual=198.18.0.100:80   | 198.18.0.21:8080 masq                    | 198.18.0.21:8080 masq w1
        virtual=198.18.0.100:80   | 198.18.0.21:80 ipip                      | 198.18.0.21:80 ipip w1
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate 5                    | 198.18.0.21:80 gate w5
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate -w 5                 | 198.18.0.21:80 gate w5
        virtual=198.18.0.100:80   | 198.18.0.21:80 masq -w 0                 | 198.18.0.21:80 masq w0
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate 2147483647           | 198.18.0.21:80 gate w2147483647
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate 2 "/ok.html", "up"   | 198.18.0.21:80 gate w2 req=/ok.html rcv=up
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate -w 2 "/ok", "up"     | 198.18.0.21:80 gate w2 req=/ok rcv=up
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate "/ok" "up"           | 198.18.0.21:80 gate w1 req=/ok rcv=up
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate 3 u:100 l:50         | 198.18.0.21:80 gate w3 l50 u100
        virtual=198.18.0.100:80   | 198.18.0.21:80 gate -w 3 "/", "x" u:9    | 198.18.0.21:80 gate w3 req=/ rcv=x u9
        virtual=198.18.0.100:80   | 198.18.0.21->198.18.0.23:80 gate -w 4    | 198.18.0.21:80 gate w4 ; 198.18.0.22:80 gate w4 ; 198.18.0.23:80 gate w4
        virtual=198.18.0.100:80   | web1->web-3 gate                         | 198.18.0.21:80 gate w1 ; 198.18.0.22:80 gate w1 ; 198.18.0.23:80 gate w1
        virtual=1                 | 198.18.0.21 gate                         | 198.18.0.21:0 gate w1
        virtual6=[2001:db8::100]:80 | [2001:db8::21]:80 gate -w 7            | [2001:db8::21]:80 gate w7
        """)
    void everyFormLdirectordReads(String virtual, String real, String expected) {
        if (virtual.startsWith("virtual6")) {
            LdirectordParser.Result r = parser.parse(FILE, virtual + "\n    real6=" + real + "\n");
            assertThat(r.diagnostics().stream().filter(ConfigDiagnostic::isError)).isEmpty();
            RealServer x = r.config().orElseThrow().virtuals().get(0).reals().get(0);
            assertThat(x.endpoint() + " " + x.forward().configName() + " w" + x.weight()).isEqualTo(expected);
            return;
        }
        assertThat(reals(virtual, real)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "real={0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
        198.18.0.21:80 gate -w                | -w must be followed by the weight
        198.18.0.21:80 gate -w heavy          | -w must be followed by the weight
        198.18.0.21:80 gate -w5               | write the weight as '-w 5'
        198.18.0.21:80 gate -w 99999999999    | weight 99999999999 is out of range 0-2147483647
        198.18.0.21:80 gate 3 -w 5            | unexpected '-w'
        198.18.0.21:80 gate heavy             | unexpected 'heavy'
        198.18.0.21:80 -w 5                   | forwarding method must be gate, masq or ipip, not '-w'
        198.18.0.21:80 route                  | forwarding method must be gate, masq or ipip
        198.18.0.21:nosuchport gate           | unknown port name 'nosuchport'
        nosuchhost:80 gate                    | host name 'nosuchhost' does not resolve
        198.18.0.23->198.18.0.21:80 gate      | ends before it starts
        198.18.0.21:80 gate "/ok"             | needs its "receive"
        """)
    void nearMissesAreErrorsAtTheirLineWithWhatToDo(String real, String message) {
        LdirectordParser.Result r = parser.parse(FILE, "virtual=198.18.0.100:80\n    real=" + real + "\n");
        assertThat(r.config()).isEmpty();
        assertThat(r.diagnostics()).filteredOn(ConfigDiagnostic::isError).hasSize(1)
                .allSatisfy(d -> assertThat(d.format()).startsWith(FILE + ":2: real").contains(message));
    }
}
