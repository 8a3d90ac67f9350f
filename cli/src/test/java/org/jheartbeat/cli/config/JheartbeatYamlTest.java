package org.jheartbeat.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.stonith.fencing.FencingPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JheartbeatYamlTest {
    private static final Path FILE = Path.of("/etc/ha.d/jheartbeat.yaml");
    private static final Optional<ClusterConfig> CLUSTER = Optional.of(
            new TwoNodeHarness(TwoNodeHarness.activeActive(), org.jheartbeat.core.config.FailbackPolicy.ON, 200).config());

    private static JheartbeatYaml parse(String text) throws UserException {
        return JheartbeatYaml.parse(text, FILE, CLUSTER);
    }

    private static String error(String text) {
        try {
            parse(text);
        } catch (UserException e) {
            assertThat(e.exitCode()).isEqualTo(2);
            return e.getMessage();
        }
        throw new AssertionError("no error for:\n" + text);
    }

    @Test
    void stonithSectionSetsTheFencingPolicyAndDefaultsWhatIsAbsent() throws Exception {
        assertThat(parse("").fencing()).isEqualTo(FencingPolicy.DEFAULT);
        JheartbeatYaml y = parse("stonith:\n  action: reset\n  power_on: never\n");
        assertThat(y.fencing().action()).isEqualTo(FencingPolicy.Action.RESET);
        assertThat(y.fencing().powerOnAfter()).isEmpty();
        assertThat(parse("stonith:\n  power_on: 1min\n").fencing()).isEqualTo(new FencingPolicy(FencingPolicy.Action.AUTO,
                Optional.of(java.time.Duration.ofMinutes(1))));
        assertThat(error("stonith:\n  action: poweroff\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2: stonith:"
                + " action: [poweroff] is not an action; write auto");
        assertThat(error("stonith:\n  power_off: never\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2: stonith:"
                + " unknown key [power_off]; did you mean 'power_on'?");
        assertThat(error("stonith:\n  power_on:\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2: stonith: power_on:"
                + " no value");
    }

    @Test
    void fenceDelayDefaultsToFiveSecondsTakesADelayOrZeroAndRefusesAnythingElseWithItsLine() throws Exception {
        assertThat(parse("").fencing().fenceDelay()).isEqualTo(java.time.Duration.ofSeconds(5));
        assertThat(parse("stonith:\n  action: off\n").fencing().fenceDelay()).isEqualTo(java.time.Duration.ofSeconds(5));
        assertThat(parse("stonith:\n  fence_delay: 8s\n").fencing().fenceDelay()).isEqualTo(java.time.Duration.ofSeconds(8));
        assertThat(parse("stonith:\n  fence_delay: 1500ms\n  action: reset\n").fencing())
                .isEqualTo(new FencingPolicy(FencingPolicy.Action.RESET,
                        Optional.of(java.time.Duration.ofSeconds(10)), java.time.Duration.ofMillis(1500)));
        assertThat(parse("stonith:\n  fence_delay: 0\n").fencing().fenceDelay()).isZero();
        assertThat(parse("stonith:\n  fence_delay: off\n").fencing().fenceDelay()).isZero();
        assertThat(error("# fencing\nstonith:\n  fence_delay: soon\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:3: stonith:"
                + " fence_delay: [soon] is not a delay; write a delay such as 5s or 1500ms (longer than a whole fence"
                + " of the peer), or 0 for none");
        assertThat(error("stonith:\n  fence_delay: -5s\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2: stonith:"
                + " fence_delay: [-5s] is not a delay");
        assertThat(error("stonith:\n  fence_delay: 10min\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2: stonith:"
                + " fence_delay: [10min] is longer than 2 min");
        assertThat(error("stonith:\n  fence_delay:\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2: stonith:"
                + " fence_delay: no value; write e.g. 5s or 0");
        assertThat(error("stonith:\n  fence_dealy: 5s\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2: stonith:"
                + " unknown key [fence_dealy]; did you mean 'fence_delay'?");
    }

    @Test
    void theAuthkeysSectionGivesTheRolloverWindowAndTheVouchedLinks() throws Exception {
        assertThat(parse("").authkeys()).isEqualTo(AuthkeysSettings.NONE);
        JheartbeatYaml y = parse("authkeys:\n  rollover_until: 2026-12-06T19:00:00+01:00\n  crc_links: [eth1, eth2]\n");
        assertThat(y.authkeys().rolloverUntil()).contains(java.time.Instant.parse("2026-12-06T18:00:00Z"));
        assertThat(y.authkeys().crcLinks()).containsExactlyInAnyOrder("eth1", "eth2");
        assertThat(y.withoutAuthkeys().authkeys()).isEqualTo(AuthkeysSettings.NONE);
        assertThat(error("authkeys:\n  rollover_until: tomorrow\n  crc_links: eth1\n")).isEqualTo(
                "/etc/ha.d/jheartbeat.yaml:2: authkeys: rollover_until: [tomorrow] is not a time with its zone; write"
                        + " e.g. 2026-12-06T18:00:00Z (UTC) or 2026-12-06T19:00:00+01:00\n"
                        + "/etc/ha.d/jheartbeat.yaml:3: authkeys: crc_links: must be a list of interface names, e.g."
                        + " [eth1]");
    }

    @Test
    void theControlSectionNamesTheAdminGroup() throws Exception {
        assertThat(parse("").adminGroup()).isEmpty();
        assertThat(parse("control:\n  admin_group: haadmin\n").adminGroup()).contains("haadmin");
        assertThat(error("control:\n  admin_group: Ha Admins\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:2: control:"
                + " admin_group: [Ha Admins] is not a group name; write the name of a group in /etc/group whose members"
                + " may change the cluster, e.g. haadmin");
    }

    @Test
    void tlsCertAndKeyFilesAreKeptTogetherAsAbsolutePaths() throws Exception {
        String listen = "metrics:\n  listen:\n    node1: 198.18.0.1:9810\n";
        assertThat(parse(listen).metricsTls()).isEmpty();
        assertThat(parse(listen + "  tls_cert_file: /etc/ha.d/metrics.crt\n  tls_key_file: /etc/ha.d/metrics.key\n")
                .metricsTls()).contains(new MetricsTlsFiles(java.nio.file.Path.of("/etc/ha.d/metrics.crt"),
                java.nio.file.Path.of("/etc/ha.d/metrics.key")));
        assertThat(error(listen + "  tls_cert_file: /etc/ha.d/metrics.crt\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:4:"
                + " metrics: tls_cert_file: needs tls_key_file: too; give both the PEM certificate and its PKCS#8 key,"
                + " or neither for plain http");
        assertThat(error(listen + "  tls_key_file: /etc/ha.d/metrics.key\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:4:"
                + " metrics: tls_key_file: needs tls_cert_file: too; give both the PEM certificate and its PKCS#8 key,"
                + " or neither for plain http");
        assertThat(error(listen + "  tls_cert_file: /etc/ha.d/metrics.crt\n  tls_key_file: metrics.key\n"))
                .isEqualTo("/etc/ha.d/jheartbeat.yaml:5: metrics: tls_key_file: must be an absolute path, e.g."
                        + " /etc/ha.d/metrics.key (a PKCS#8 PEM key as openssl genpkey writes it, mode 0600)");
        assertThat(error(listen + "  tls_cert_fle: /etc/ha.d/metrics.crt\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:4:"
                + " metrics: unknown key [tls_cert_fle]; did you mean 'tls_cert_file'? known: listen, token_file,"
                + " tls_cert_file, tls_key_file");
    }

    @Test
    void aTokenFileIsKeptAsItsPath() throws Exception {
        assertThat(parse("metrics:\n  listen:\n    node1: 198.18.0.1:9810\n").metricsTokenFile()).isEmpty();
        assertThat(parse("metrics:\n  listen:\n    node1: 198.18.0.1:9810\n  token_file: /etc/ha.d/metrics.token\n")
                .metricsTokenFile()).contains(java.nio.file.Path.of("/etc/ha.d/metrics.token"));
    }

    @Test
    void perNodeListenAddressesAndOffWhereNotListed() throws Exception {
        JheartbeatYaml y = parse("# jheartbeat only\nmetrics:\n  listen:\n    node1: 198.18.0.1:9810\n"
                + "    node2: \"[::1]:9811\"\n");
        assertThat(y.metricsListen(NodeName.of("node1"))).contains(new InetSocketAddress("198.18.0.1", 9810));
        assertThat(y.metricsListen(NodeName.of("node2")).get().getPort()).isEqualTo(9811);
        assertThat(y.metricsListen(NodeName.of("node2")).get().getAddress().isLoopbackAddress()).isTrue();
        JheartbeatYaml one = parse("metrics:\n  listen:\n    node2: 198.18.0.2:9810\n");
        assertThat(one.metricsListen(NodeName.of("node1"))).isEmpty();
        assertThat(parse("").metricsListen(NodeName.of("node1"))).isEmpty();
        assertThat(parse("# nothing yet\n").metricsListen(NodeName.of("node1"))).isEmpty();
        assertThat(parse("metrics:\n").metricsListen(NodeName.of("node1"))).isEmpty();
    }

    @Test
    void monitorDefaultsAreHaresourcesOptionsCheckedWithTheirRules() throws Exception {
        JheartbeatYaml y = parse("monitor:\n  interval: 5s\n  restart_limit: 1\n  restart_window: 2min\n");
        assertThat(y.monitorDefaults().monitorInterval()).contains(java.time.Duration.ofSeconds(5));
        assertThat(y.monitorDefaults().restartLimit()).hasValue(1);
        assertThat(y.monitorDefaults().restartWindow()).contains(java.time.Duration.ofMinutes(2));
        assertThat(parse("monitor:\n  interval: off\n").monitorDefaults().monitorInterval())
                .contains(java.time.Duration.ZERO);
        assertThat(parse("").monitorDefaults()).isEqualTo(org.jheartbeat.core.config.OperationTimeouts.NONE);
        assertThat(error("monitor:\n  interval: 5s\n  restart_limt: 2\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:3:"
                + " monitor: unknown key [restart_limt]; did you mean 'restart_limit'? known: interval, restart_limit,"
                + " restart_window, heartbeat_class");
        assertThat(error("monitor:\n  restart_limit: many\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2:"
                + " monitor: restart_limit: restart limit [many] does not parse: write a whole number from 0 to 1000");
        assertThat(error("monitor:\n  restart_window: soon\n")).startsWith("/etc/ha.d/jheartbeat.yaml:2:"
                + " monitor: restart_window: timeout [soon] does not parse");
    }

    /** jheartbeat.yaml as a directory or a huge file: one line saying so, exit 2 (tryout). */
    @Test
    void aDirectoryOrAHugeFileIsNamedAsSuch(@TempDir Path dir) throws Exception {
        Path f = Files.createDirectory(dir.resolve("jheartbeat.yaml"));
        assertThatThrownBy(() -> JheartbeatYaml.load(dir, CLUSTER)).isInstanceOf(UserException.class)
                .hasMessage(f + ": is a directory; a file is expected")
                .satisfies(e -> assertThat(((UserException) e).exitCode()).isEqualTo(2));
        Files.delete(f);
        Files.writeString(f, "#" + "a".repeat(5_000_000) + "\n");
        assertThatThrownBy(() -> JheartbeatYaml.load(dir, CLUSTER)).isInstanceOf(UserException.class)
                .hasMessage(f + ": is 5000002 bytes; config files are limited to 1048576 bytes: is this the right"
                        + " file?")
                .satisfies(e -> assertThat(((UserException) e).exitCode()).isEqualTo(2));
    }

    @Test
    void aMissingFileMeansNoMetrics(@TempDir Path dir) throws Exception {
        assertThat(JheartbeatYaml.load(dir, CLUSTER).metricsListen(NodeName.of("node1"))).isEmpty();
        Files.writeString(dir.resolve("jheartbeat.yaml"), "metrics:\n  listen:\n    node1: 127.0.0.1:9810\n");
        assertThat(JheartbeatYaml.load(dir, CLUSTER).metricsListen(NodeName.of("node1"))).isPresent();
    }

    @Test
    void eachMistakeIsOneMessageWithFileLineAndWhatToDo() {
        assertThat(error("metrics:\n  listen:\n    node3: 198.18.0.3:9810\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:3:"
                + " metrics: listen: [node3] is not a node of ha.cf; did you mean 'node1'? use one of node1, node2");
        assertThat(error("metrics:\n  listen:\n    node1: metrics.example:9810\n"))
                .startsWith("/etc/ha.d/jheartbeat.yaml:3: metrics: listen: node1: [metrics.example:9810] is not"
                        + " ADDRESS:PORT (an IP address, not a host name").contains("; write \"node1: ADDRESS:PORT\"");
        assertThat(error("metrics:\n  listen:\n    node1: 198.18.0.1\n"))
                .startsWith("/etc/ha.d/jheartbeat.yaml:3: metrics: listen: node1: [198.18.0.1] is not ADDRESS:PORT");
        assertThat(error("metrics:\n  listen:\n    node1: 198.18.0.1:70000\n"))
                .startsWith("/etc/ha.d/jheartbeat.yaml:3: metrics: listen: node1: port 70000 is out of range; use"
                        + " 1..65535");
        assertThat(error("metrics:\n  listen:\n    node1: 998.18.0.1:9810\n"))
                .startsWith("/etc/ha.d/jheartbeat.yaml:3: metrics: listen: node1: [998.18.0.1] is not an IP address");
        assertThat(error("metrics:\n  listen:\n    node1:\n")).startsWith("/etc/ha.d/jheartbeat.yaml:3: metrics: listen:"
                + " node1: no address");
        assertThat(error("metric:\n  listen: {}\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:1: unknown key"
                + " [metric]; did you mean 'metrics'? known: alerts, authkeys, control, director, metrics, monitor, stonith, web");
        assertThat(error("monitor:\n  interval: 10s\nmonitor:\n  interval: 20s\n"))
                .isEqualTo("/etc/ha.d/jheartbeat.yaml:3: monitor appears twice (first on line 1); keep one");
        assertThat(error("metrics:\n  listne:\n    node1: 198.18.0.1:9810\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:2:"
                + " metrics: unknown key [listne]; did you mean 'listen'? known: listen, token_file, tls_cert_file, tls_key_file");
        assertThat(error("metrics:\n  token_file: metrics.token\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:2: metrics:"
                + " token_file: must be an absolute path, e.g. /etc/ha.d/metrics.token (a file of mode 0600 holding one"
                + " line, the token)");
        assertThat(error("metrics: 198.18.0.1:9810\n")).startsWith("/etc/ha.d/jheartbeat.yaml:1: metrics: must be a"
                + " mapping");
        assertThat(error("metrics:\n  listen:\n    node1: 198.18.0.1:9810\n    node1: 198.18.0.1:9811\n"))
                .isEqualTo("/etc/ha.d/jheartbeat.yaml:4: metrics: listen: node1 appears twice (first on line 3); keep one");
        assertThat(error("metrics:\n  listen:\n   node1: [1\n")).startsWith("/etc/ha.d/jheartbeat.yaml:")
                .contains("YAML syntax error");
    }

    @Test
    void everyProblemOfTheFileIsReportedAtOnceInLineOrder() {
        String text = """
                metrics:
                  listen:
                    node3: 198.18.0.3:9810
                    node1: 198.18.0.1
                    node2: 198.18.0.2:9810
                monitor:
                  interval: often
                  restart_limt: 2
                stonith:
                  fence_delay: soon
                  action: auto
                colour: blue
                """;
        assertThat(error(text)).isEqualTo(String.join("\n",
                "/etc/ha.d/jheartbeat.yaml:3: metrics: listen: [node3] is not a node of ha.cf; did you mean 'node1'?"
                        + " use one of node1, node2",
                "/etc/ha.d/jheartbeat.yaml:4: metrics: listen: node1: [198.18.0.1] is not ADDRESS:PORT (an IP address,"
                        + " not a host name: nothing is looked up at start); write \"node1: ADDRESS:PORT\" with one of"
                        + " node1's IP addresses, e.g. 192.168.1.1:9810 ([::1]:9810 for IPv6)",
                error("monitor:\n  interval: often\n").replace(":2:", ":7:"),
                "/etc/ha.d/jheartbeat.yaml:8: monitor: unknown key [restart_limt]; did you mean 'restart_limit'? known:"
                        + " interval, restart_limit, restart_window, heartbeat_class",
                error("stonith:\n  fence_delay: soon\n").replace(":2:", ":10:"),
                "/etc/ha.d/jheartbeat.yaml:12: unknown key [colour]; known: alerts, authkeys, control, director, metrics, monitor, stonith, web"));
    }

    @Test
    void withoutTheClusterAnyNodeNameIsTaken() throws Exception {
        assertThat(JheartbeatYaml.parse("metrics:\n  listen:\n    alpha: 198.18.0.1:9810\n", FILE, Optional.empty())
                .metricsListen(NodeName.of("alpha"))).isPresent();
        assertThatThrownBy(() -> JheartbeatYaml.parse("x: 1\n", null, Optional.empty()))
                .hasMessageStartingWith("jheartbeat.yaml:1: ");
    }
}
