package org.jheartbeat.director.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ipvsadm backend against a recording ipvsadm (this kernel has no IPVS; see
 * {@link RecordingIpvsadm}).
 */
class IpvsadmBackendTest {
    @TempDir
    Path dir;

    static final ServiceKey VIP = ServiceKey.of(Protocol.TCP, IpvsadmTextTest.epQuiet("198.18.0.100", 80));

    private static List<TableCommand> seedStart() {
        ServiceSpec spec = new ServiceSpec(VIP, "lc", Optional.of(90), Optional.empty(), false, Optional.empty());
        Endpoint r1 = IpvsadmTextTest.epQuiet("198.18.0.21", 80);
        Endpoint r2 = IpvsadmTextTest.epQuiet("198.18.0.22", 80);
        return List.of(new TableCommand.AddService(spec),
                new TableCommand.SetReal(VIP, new RealSpec(r1, Forward.GATE, 1, 0, 0), false, true),
                new TableCommand.SetReal(VIP, new RealSpec(r2, Forward.GATE, 1, 0, 0), false, true),
                new TableCommand.DeleteReal(VIP, r2));
    }

    @Test
    void aBatchGoesThroughIpvsadmRAndTheTableReadsBack() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(dir);
        IpvsadmBackend b = rec.backend(3);
        b.apply(seedStart());
        b.apply(List.of(new TableCommand.SetReal(VIP, new RealSpec(IpvsadmTextTest.epQuiet("198.18.0.23", 80),
                Forward.MASQ, 5, 100, 10), false, true)));
        assertThat(rec.commands()).containsExactly(
                "ipvsadm -A -t 198.18.0.100:80 -s lc -p 90",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.22:80 -g -w 1",
                "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.22:80",
                "ipvsadm -a -t 198.18.0.100:80 -x 100 -y 10 -r 198.18.0.23:80 -m -w 5");
        TableSnapshot read = b.read();
        assertThat(read.services()).hasSize(1);
        assertThat(read.services().get(0).reals()).extracting(r -> r.spec().endpoint().toString(),
                r -> r.spec().weight(), r -> r.spec().upperThreshold()).containsExactly(
                org.assertj.core.groups.Tuple.tuple("198.18.0.21:80", 1, 0),
                org.assertj.core.groups.Tuple.tuple("198.18.0.23:80", 5, 100));
        // the status listing is the recorder's own -L -n, byte for byte, in every view
        assertThat(IpvsadmText.list(b.status(ListView.DEFAULT, false), ListView.DEFAULT))
                .isEqualTo(rec.run("-L", "-n"));
        assertThat(IpvsadmText.list(b.status(ListView.STATS, false), ListView.STATS))
                .isEqualTo(rec.run("-L", "-n", "--stats"));
        // (--rate and -c: IpvsadmTextTest; each recorder run costs a Python start)
    }

    @Test
    void aFailingCommandIsRetriedAndAppliedOnce() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(dir);
        IpvsadmBackend b = rec.backend(3);
        rec.failNext(1);
        b.apply(seedStart());
        // the failed -R applied nothing; the retry applied the difference (R2 added and deleted = nothing)
        assertThat(rec.commands()).containsExactly(
                "ipvsadm -A -t 198.18.0.100:80 -s lc -p 90",
                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1");
        assertThat(IpvsTable.of(b.read()).reals(VIP)).hasSize(1);
    }

    @Test
    void aCommandThatKeepsFailingIsReportedWithWhatIsMissing() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(dir);
        IpvsadmBackend b = rec.backend(2);
        rec.failNext(100);
        assertThatThrownBy(() -> b.apply(seedStart())).isInstanceOf(BackendException.class)
                .hasMessageContaining("after 2 attempts").hasMessageContaining("Memory allocation problem")
                .satisfies(e -> assertThat(((BackendException) e).notApplied()).extracting(TableCommand::commandLine)
                        .containsExactly("ipvsadm -A -t 198.18.0.100:80 -s lc -p 90",
                                "ipvsadm -a -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.21:80 -g -w 1"));
        assertThat(rec.commands()).isEmpty();
    }

    @Test
    void aCommandIpvsadmRefusesIsReported() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(dir);
        IpvsadmBackend b = rec.backend(1);
        ServiceSpec bad = new ServiceSpec(VIP, "fancy", Optional.empty(), Optional.empty(), false, Optional.empty());
        assertThatThrownBy(() -> b.apply(List.of(new TableCommand.AddService(bad))))
                .isInstanceOf(BackendException.class).hasMessageContaining("Scheduler or persistence engine not found");
    }

    @Test
    void theRecorderRejectsWhatIpvsadmsManPageRejects() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(dir);
        for (List<String> bad : List.of(List.of("-A", "-t", "198.18.0.100:80", "-r", "198.18.0.21:80"),
                List.of("-a", "-t", "198.18.0.100:80", "-g"))) {
            IpvsadmBackend.Result r = IpvsadmBackend.processes(rec.env()).run(
                    java.util.stream.Stream.concat(java.util.stream.Stream.of(rec.program().toString()), bad.stream())
                            .toList(), "", java.time.Duration.ofSeconds(20));
            assertThat(r.exitCode()).as(bad.toString()).isEqualTo(2);
            assertThat(r.stderr()).as(bad.toString()).startsWith("ipvsadm: ");
        }
        assertThat(rec.commands()).isEmpty();
    }
}
