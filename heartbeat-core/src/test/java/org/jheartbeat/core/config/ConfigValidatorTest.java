package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ConfigDiagnostic.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigValidatorTest {
    private static final Path HA_CF = Path.of("/etc/ha.d/ha.cf");
    private static final Path AUTHKEYS = Path.of("/etc/ha.d/authkeys");
    private static final String MEDIA_AND_NODES = "ucast eth1 10.0.0.2\nnode node1 node2\nauto_failback on\n";
    private static final AuthKeysParser.Result AUTH = new AuthKeysParser.Result(
            Optional.of(AuthKeys.single(1, AuthMethod.SHA1, new byte[] {'k'})), List.of());

    private static ConfigValidator.Result validate(String haCf) {
        return validate(haCf, Optional.empty());
    }

    private static ConfigValidator.Result validate(String haCf, Optional<NodeName> local) {
        HaCfParser.Result parsed = HaCfParser.parse(HA_CF, haCf);
        assertThat(parsed.diagnostics()).as("test input must parse cleanly").isEmpty();
        return ConfigValidator.validate(parsed.haCf(), AUTH, AUTHKEYS, local);
    }

    @Test
    void heartbeatDefaultsAreAppliedAndReported() {
        ConfigValidator.Result r = validate(MEDIA_AND_NODES);
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.timing()).isEqualTo(new Timing(Duration.ofMillis(1000), Duration.ofMillis(30_000),
                Duration.ofMillis(15_000), Duration.ofMillis(30_000)));
        assertThat(r.defaults()).extracting(AppliedDefault::directive, AppliedDefault::value).containsExactly(
                tuple("keepalive", "1000ms"), tuple("deadtime", "30000ms"), tuple("warntime", "15000ms"),
                tuple("initdead", "30000ms"));
        assertThat(r.defaults().get(2).format()).isEqualTo("warntime not set; using 15000ms (deadtime/2, as Heartbeat)");
    }

    @Test
    void explicitTimersAreKept() {
        ConfigValidator.Result r = validate("keepalive 500ms\ndeadtime 3\nwarntime 2\ninitdead 10\n" + MEDIA_AND_NODES);
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.defaults()).isEmpty();
        assertThat(r.timing()).isEqualTo(Timing.ofMillis(500, 2000, 3000, 10_000));
        assertThat(r.failback()).isEqualTo(FailbackPolicy.ON);
    }

    @ParameterizedTest(name = "keepalive {0}, deadtime {1}")
    @CsvSource({"1, 2", "1, 1", "2, 3", "500ms, 1"})
    void deadtimeMustExceedTwiceKeepalive(String keepalive, String deadtime) {
        ConfigValidator.Result r = validate("keepalive " + keepalive + "\ndeadtime " + deadtime + "\ninitdead 30\n"
                + MEDIA_AND_NODES);
        assertThat(r.diagnostics()).filteredOn(ConfigDiagnostic::isError).singleElement().satisfies(d -> {
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).contains("is too small compared to keeplive")
                    .contains("more than twice keepalive");
        });
    }

    @Test
    void deadtimeRuleBlamesKeepaliveWhenDeadtimeIsTheDefault() {
        ConfigValidator.Result r = validate("keepalive 20\n" + MEDIA_AND_NODES);
        assertThat(r.diagnostics()).filteredOn(ConfigDiagnostic::isError).singleElement()
                .satisfies(d -> assertThat(d.line()).isEqualTo(1));
    }

    @Test
    void zeroKeepaliveAndZeroWarntimeAreErrors() {
        ConfigValidator.Result r = validate("keepalive 0\nwarntime 0\n" + MEDIA_AND_NODES);
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::severity, ConfigDiagnostic::line)
                .containsExactly(tuple(Severity.ERROR, 1), tuple(Severity.ERROR, 2));
    }

    @Test
    void warntimeNotBelowDeadtimeIsAWarning() {
        ConfigValidator.Result r = validate("deadtime 10\nwarntime 10\ninitdead 20\n" + MEDIA_AND_NODES);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(2);
        });
    }

    @Test
    void initdeadBelowDeadtimeIsAnError() {
        ConfigValidator.Result r = validate("deadtime 30\ninitdead 20\n" + MEDIA_AND_NODES);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).contains("initdead must be at least deadtime");
        });
    }

    @Test
    void initdeadBelowTenSecondsIsHeartbeatsWarning() {
        ConfigValidator.Result r = validate("keepalive 1\ndeadtime 5\ninitdead 8\n" + MEDIA_AND_NODES);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(3);
            assertThat(d.message()).startsWith("Initial dead time [8000 ms] may be too small!");
        });
    }

    @Test
    void derivedInitdeadFollowsHeartbeat() {
        assertThat(validate("deadtime 3\n" + MEDIA_AND_NODES).timing().initdead()).isEqualTo(Duration.ofSeconds(12));
        assertThat(validate("deadtime 8\n" + MEDIA_AND_NODES).timing().initdead()).isEqualTo(Duration.ofSeconds(16));
        assertThat(validate("deadtime 8\n" + MEDIA_AND_NODES).diagnostics()).isEmpty();
    }

    @Test
    void mediaAndNodesAreRequired() {
        ConfigValidator.Result r = validate("keepalive 1\nauto_failback off\n");
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::message)
                .anySatisfy(m -> assertThat(m).startsWith("No heartbeat media defined"))
                .anySatisfy(m -> assertThat(m).startsWith("no nodes defined"));
        assertThat(r.diagnostics()).allSatisfy(d -> assertThat(d.line()).isZero());
    }

    @Test
    void oneNodeIsAWarningAndThreeAnError() {
        String media = "bcast eth0\nauto_failback on\n";
        assertThat(validate(media + "node a\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.severity()).isEqualTo(Severity.WARNING));
        assertThat(validate(media + "node a b\nnode c\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(4);
            assertThat(d.message()).contains("supports exactly two");
        });
    }

    @Test
    void localNodeMustBeListed() {
        assertThat(validate(MEDIA_AND_NODES, Optional.of(NodeName.of("NODE2"))).diagnostics()).isEmpty();
        assertThat(validate(MEDIA_AND_NODES, Optional.of(NodeName.of("node9"))).diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).startsWith("Current node [node9] not in configuration!"));
    }

    @Test
    void authMustBePresentButItsOwnErrorsAreNotRepeated() {
        HaCf haCf = HaCfParser.parse(HA_CF, MEDIA_AND_NODES).haCf();
        AuthKeysParser.Result none = new AuthKeysParser.Result(Optional.empty(), List.of());
        assertThat(ConfigValidator.validate(haCf, none, AUTHKEYS, Optional.empty()).diagnostics()).singleElement()
                .satisfies(d -> {
                    assertThat(d.file()).isEqualTo(AUTHKEYS);
                    assertThat(d.message()).startsWith("Authentication configuration error");
                });
        AuthKeysParser.Result broken = AuthKeysParser.parse(AUTHKEYS, "auth 1\n");
        assertThat(ConfigValidator.validate(haCf, broken, AUTHKEYS, Optional.empty()).diagnostics()).isEmpty();
    }

    @Test
    void legacyFailbackIsTheDefaultAndWarnsThatItActsLikeOn() {
        ConfigValidator.Result r = validate("bcast eth0\nnode a b\n");
        assertThat(r.failback()).isEqualTo(FailbackPolicy.LEGACY);
        assertThat(r.defaults()).extracting(AppliedDefault::directive).contains("auto_failback");
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isZero();
            assertThat(d.message()).startsWith("Deprecated 'legacy' auto_failback option selected")
                    .contains("treats legacy like 'auto_failback on'");
        });
        assertThat(validate("bcast eth0\nnode a b\nauto_failback legacy\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.line()).isEqualTo(3));
    }

    @Test
    void deadpingMustExceedTwiceKeepaliveAsHeartbeat() {
        assertThat(validate("keepalive 1\ndeadtime 10\ndeadping 3\n" + MEDIA_AND_NODES).diagnostics()).isEmpty();
        ConfigValidator.Result r = validate("keepalive 1\ndeadtime 10\ndeadping 2\n" + MEDIA_AND_NODES);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.file()).isEqualTo(HA_CF);
            assertThat(d.line()).isEqualTo(3);
            assertThat(d.message()).isEqualTo("Ping dead time [2000ms] is too small compared to keeplive [1000ms]:"
                    + " deadping must be more than twice keepalive, as Heartbeat requires");
        });
    }

    @Test
    void niceFailbackOnLineIsWhereTheFailbackComesFromAndNoLegacyWarning() {
        HaCfParser.Result parsed = HaCfParser.parse(HA_CF, "ucast eth1 10.0.0.2\nnode node1 node2\nnice_failback on\n");
        ConfigValidator.Result r = ConfigValidator.validate(parsed.haCf(), AUTH, AUTHKEYS, Optional.empty());
        assertThat(r.failback()).isEqualTo(FailbackPolicy.OFF);
        assertThat(r.diagnostics()).isEmpty();
    }
}
