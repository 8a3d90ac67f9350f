package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.ConfigDiagnostic.Severity;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ha.cf {@code ping}, {@code ping_group}, {@code respawn ... ipfail} and {@code deadping} (Heartbeat 3.0.6 ha.cf(5)). */
class PingConfigTest {
    @TempDir
    Path dir;

    private static HaCfParser.Result parse(String text) {
        return HaCfParser.parse(Path.of("/etc/ha.d/ha.cf"), text);
    }

    @Test
    void pingDeclaresOnePseudoNodePerHostAndPingGroupOneForAll() {
        HaCfParser.Result r = parse("ping 198.18.0.254 gw.example\nping_group routers 198.18.0.1 198.18.0.2\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().pingNodes()).containsExactly(
                new PingNodeDecl("198.18.0.254", List.of("198.18.0.254"), false, 1),
                new PingNodeDecl("gw.example", List.of("gw.example"), false, 1),
                new PingNodeDecl("routers", List.of("198.18.0.1", "198.18.0.2"), true, 2));
        assertThat(r.haCf().ipfailLine()).isEmpty();
    }

    @Test
    void respawnOfIpfailTurnsTheRuleOnAndOtherProgramsWarn() {
        HaCfParser.Result r = parse("respawn hacluster /usr/lib/heartbeat/ipfail\nrespawn root /usr/bin/true\n");
        assertThat(r.haCf().ipfailLine()).contains(1);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).contains("/usr/bin/true").contains("only ipfail");
        });
    }

    @Test
    void badPingLinesAreErrorsWithTheirLine() {
        HaCfParser.Result r = parse("ping 198.18.0.999\nping_group lonely\nping 198.18.0.1\nping 198.18.0.1\n"
                + "respawn hacluster\nrespawn hacluster ipfail\n");
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::severity).containsOnly(Severity.ERROR);
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::line).containsExactly(1, 2, 4, 5, 6);
        assertThat(r.diagnostics().get(2).message()).contains("already declared on line 3");
        assertThat(r.haCf().ipfailLine()).isEmpty();
    }

    @Test
    void loaderCarriesPingNodesDeadpingAndIpfail() {
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode()
                .haCfAppend("ping 198.18.0.254\ndeadping 4\nrespawn hacluster /usr/lib/heartbeat/ipfail\n")
                .writeTo(dir), Optional.empty());
        assertThat(r.diagnostics()).isEmpty();
        PingSettings p = r.config().orElseThrow().ping();
        assertThat(p.nodes()).extracting(PingNodeDecl::name).containsExactly("198.18.0.254");
        assertThat(p.deadping()).isEqualTo(Duration.ofSeconds(4));
        assertThat(p.ipfail()).isTrue();
        assertThat(r.defaultsApplied()).isEmpty();
        ConfigLoadResult d = ConfigLoader.load(ConfigDirBuilder.validTwoNode().haCfAppend("ping 198.18.0.254\n")
                .writeTo(dir.resolve("d")), Optional.empty());
        assertThat(d.defaultsApplied()).singleElement().satisfies(a -> assertThat(a.toString()).contains("deadping"));
        assertThat(d.config().orElseThrow().ping().deadping()).isEqualTo(d.config().orElseThrow().timing().deadtime());
    }

    @Test
    void deadpingDefaultsToDeadtimeAndNoPingLinesMeansNone() {
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode().writeTo(dir), Optional.empty());
        PingSettings p = r.config().orElseThrow().ping();
        assertThat(p.nodes()).isEmpty();
        assertThat(p.ipfail()).isFalse();
        assertThat(p.deadping()).isEqualTo(r.config().orElseThrow().timing().deadtime());
    }

    @Test
    void aPingNodeNamedLikeAClusterNodeIsAnErrorAndIpfailWithoutPingNodesWarns() {
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode()
                .haCfAppend("ping_group node2 198.18.0.1\n").writeTo(dir), Optional.empty());
        assertThat(r.hasErrors()).isTrue();
        assertThat(r.diagnostics()).anySatisfy(d -> assertThat(d.message()).contains("name of a cluster node"));
        ConfigLoadResult w = ConfigLoader.load(ConfigDirBuilder.validTwoNode()
                .haCfAppend("respawn hacluster /usr/lib/heartbeat/ipfail\n").writeTo(dir.resolve("w")), Optional.empty());
        assertThat(w.hasErrors()).isFalse();
        assertThat(w.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.message()).contains("no ping");
        });
    }
}
