package org.jheartbeat.director.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.junit.jupiter.api.Test;

/** {@code resetcounts} and {@code slowstart}: jheartbeat extensions, per virtual or global, each mistake a file:line error. */
class RejoinConfigTest {
    private static final Path FILE = Path.of("/etc/ha.d/ldirectord.cf");

    private static String virtual(String vip, String extra) {
        return "virtual = " + vip + ":80\n\treal = 198.18.0.21:80 gate 2\n\tscheduler = wlc\n" + extra;
    }

    private static List<String> errors(LdirectordParser.Result r) {
        return r.diagnostics().stream().filter(ConfigDiagnostic::isError).map(ConfigDiagnostic::format).toList();
    }

    @Test
    void ownValuesWinOverGlobalOnesAndTheDefaultIsLdirectords() {
        LdirectordParser.Result r = new LdirectordParser().parse(FILE, "slowstart = 20\nresetcounts = yes\n"
                + virtual("198.18.0.100", "") + virtual("198.18.0.101", "\tslowstart = 0\n\tresetcounts = no\n")
                + virtual("198.18.0.102", "\tslowstart = 3600\n"));
        assertThat(errors(r)).isEmpty();
        assertThat(r.config().orElseThrow().virtuals()).extracting(VirtualService::rejoin)
                .containsExactly(new Rejoin(true, 20), Rejoin.OFF, new Rejoin(true, 3600));
        LdirectordParser.Result none = new LdirectordParser().parse(FILE, virtual("198.18.0.100", ""));
        assertThat(none.config().orElseThrow().virtuals().get(0).rejoin()).isEqualTo(Rejoin.OFF);
    }

    @Test
    void aBadValueIsAnErrorAtItsLine() {
        for (String bad : List.of("-1", "30s", "3601", "x", "99999999999", "")) {
            LdirectordParser.Result r = new LdirectordParser().parse(FILE, virtual("198.18.0.100",
                    "\tslowstart = " + bad + "\n"));
            assertThat(errors(r)).as(bad).hasSize(1);
            assertThat(errors(r).get(0)).as(bad).startsWith(FILE + ":4: slowstart must be a whole number of seconds"
                    + " from 0 (off) to 3600, e.g. slowstart = 30");
            assertThat(r.config()).isEmpty();
        }
        LdirectordParser.Result global = new LdirectordParser().parse(FILE, "slowstart = 1h\n"
                + virtual("198.18.0.100", "") + virtual("198.18.0.101", ""));
        assertThat(errors(global)).hasSize(1);
        assertThat(errors(global).get(0)).startsWith(FILE + ":1: slowstart must be");
        LdirectordParser.Result yn = new LdirectordParser().parse(FILE, virtual("198.18.0.100", "\tresetcounts = on\n"));
        assertThat(errors(yn)).hasSize(1);
        assertThat(errors(yn).get(0)).startsWith(FILE + ":4: resetcounts must be yes or no");
    }
}
