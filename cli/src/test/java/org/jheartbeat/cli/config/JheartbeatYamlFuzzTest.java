package org.jheartbeat.cli.config;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;
import org.jheartbeat.core.testkit.TwoNodeHarness;

/**
 * Fuzzer of the jheartbeat.yaml parser (snakeyaml underneath; an admin edits the file by hand),
 * grown from the examples of docs/reference.md and the forms {@link JheartbeatYamlTest} uses.
 * Properties: only {@link UserException} escapes, with exit code 2, and its message is
 * {@code jheartbeat.yaml:LINE: …} per problem, each with a line inside the text (lines counted as an
 * editor counts them: LF only) and no CR, NUL or ESC. That each problem is one line is not asserted
 * yet: a quoted value folded over two lines is echoed with its line break (open; see
 * {@link JheartbeatYamlFuzzRegressionTest}). Cases: {@code -Djhb.fuzz.tries} (docs/fuzzing.md).
 */
class JheartbeatYamlFuzzTest {
    static final Path FILE = Path.of("/etc/ha.d/jheartbeat.yaml");
    private static final Optional<ClusterConfig> CLUSTER = Optional.of(
            new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200).config());
    private static final Pattern PROBLEM = Pattern.compile(Pattern.quote(FILE.toString()) + ":(\\d+): \\S.*", Pattern.DOTALL);

    static final List<byte[]> SEEDS = Stream.of(
            "metrics:\n  listen:                     # ha.cf node: IP address:port of its endpoint (no host names)\n"
                    + "    node1: 192.168.1.1:9810\n    node2: 192.168.1.2:9810\n"
                    + "monitor:                      # optional; these are the built-in defaults\n"
                    + "  interval: 10s               # 0 or off: watch only resources whose op_monitor_interval says so\n"
                    + "  restart_limit: 3\n  restart_window: 10min\n",
            "stonith:\n  action: auto        # auto (default): off where the device confirms an off, else reset\n"
                    + "  power_on: 10s       # default\n  fence_delay: 5s     # default\n",
            "stonith:\n  action: reset\n  power_on: never\n",
            "stonith:\n  fence_delay: 1500ms\n  action: reset\n",
            "# jheartbeat only\nmetrics:\n  listen:\n    node1: 198.18.0.1:9810\n    node2: \"[::1]:9811\"\n",
            "monitor:\n  interval: off\n  restart_limit: 1\n  restart_window: 2min\n",
            "metrics:\n  listen:\n    node3: 198.18.0.3:9810\n    node1: 198.18.0.1\n    node2: 198.18.0.2:9810\n"
                    + "monitor:\n  interval: often\n  restart_limt: 2\nstonith:\n  fence_delay: soon\n  action: auto\n"
                    + "colour: blue\n",
            "{metrics: {listen: {node1: '198.18.0.1:9810'}}, stonith: {fence_delay: 0}}\n")
            .map(s -> s.getBytes(ISO_8859_1)).toList();

    @Provide
    Arbitrary<Mutant> jheartbeatYaml() {
        return Mutations.of(SEEDS);
    }

    @Property
    void onlyUserExceptionEscapesAndItNamesFileAndLine(@ForAll("jheartbeatYaml") Mutant m) {
        try {
            assertThat(JheartbeatYaml.parse(m.text(), FILE, CLUSTER)).as("%s", m).isNotNull();
        } catch (UserException e) {
            assertThat(e.exitCode()).as("%s", m).isEqualTo(2);
            int lines = m.text().split("\n", -1).length;
            // one problem per line is the contract
            for (String line : e.getMessage().split("\n", -1)) {
                Matcher p = PROBLEM.matcher(line);
                assertThat(p.matches()).as("not FILE:LINE: … [%s]: %s", line, m).isTrue();
                assertThat(Integer.parseInt(p.group(1))).as("[%s]: %s", line, m).isBetween(1, Math.max(1, lines));
                assertThat(line).as("a control character in [%s]: %s", line, m).doesNotContain("\r", "\0", "\u001b");
            }
        }
    }
}
