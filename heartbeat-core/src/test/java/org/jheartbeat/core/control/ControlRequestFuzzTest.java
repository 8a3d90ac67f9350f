package org.jheartbeat.core.control;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;

/**
 * Fuzzer of the control-socket request parser {@link ControlRequest#parse(String)} (any local client may send it anything),
 * grown from every request form the CLI sends. The server hands the parser the line's bytes as
 * ISO-8859-1 ({@link ControlServer}), so any byte string is a possible input. Properties: nothing but
 * {@link MalformedRequestException} escapes, and its message is one line of printable ASCII (it is sent
 * back and logged); an accepted line is the request's canonical wire form (a hand-over also has
 * the alias {@code failback} for {@code foreign} and leading zeros in its timeout), and reading that
 * again gives the same request. Cases per property: {@code -Djhb.fuzz.tries} (docs/fuzzing.md).
 */
class ControlRequestFuzzTest {
    static final List<byte[]> SEEDS = List.of("status", "status-json", "cl_status listnodes",
            "cl_status hbstatus", "cl_status nodestatus node2", "cl_status -m hblinkstatus node2 eth1",
            "cl_status rscstatus", "config-digest", "groups-running", "standby all 30", "takeover foreign 3600",
            "standby failback 1", "takeover local 120", "cleanup", "cleanup web", "cleanup 2", "stonith-status",
            "reload", "events 0 10", "events 1796526724518 5000").stream().map(s -> s.getBytes(ISO_8859_1)).toList();

    @Provide
    Arbitrary<Mutant> lines() {
        return Mutations.of(SEEDS);
    }

    @Property
    void onlyMalformedRequestEscapesAndAcceptedLinesAreCanonical(@ForAll("lines") Mutant m) throws Exception {
        String line = m.text();
        ControlRequest r;
        try {
            r = ControlRequest.parse(line);
        } catch (MalformedRequestException e) {
            assertThat(e.getMessage()).as("%s", m).isNotBlank().matches("[\\x20-\\x7e]+");
            return;
        }
        // the one alias: "failback" means "foreign" (ResourceSet.fromWire, as hb_standby's argument)
        if (r instanceof ControlRequest.Handover h) {
            // two spellings: the set alias failback = foreign, and leading zeros in the timeout (030 = 30)
            String[] w = line.split(" ");
            assertThat(w).as("%s", m).hasSize(3);
            assertThat(w[0]).isEqualTo(h.kind().wireName());
            assertThat(org.jheartbeat.core.takeover.ResourceSet.fromWire(w[1])).contains(h.set());
            assertThat(Integer.parseInt(w[2])).isEqualTo(h.timeoutSeconds());
        } else {
            assertThat(r.toWire()).as("%s", m).isEqualTo(line);
        }
        assertThat(ControlRequest.parse(r.toWire())).isEqualTo(r);
    }

    /**
     * The long run's shrunk case (a mistake of this fuzzer's first version, which took the {@code
     * failback} alias for one everywhere): a {@code cl_status} argument is passed on as written.
     */
    @Example
    void aClStatusArgumentNamedFailbackIsPassedOnAsWritten() throws Exception {
        assertThat(ControlRequest.parse("cl_status standby failback 1"))
                .isEqualTo(new ControlRequest.ClStatus(List.of("standby", "failback", "1")));
        assertThat(ControlRequest.parse("standby failback 1").toWire()).isEqualTo("standby foreign 1");
        assertThat(ControlRequest.parse("standby all 030").toWire()).isEqualTo("standby all 30");
    }
}
