package org.jheartbeat.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.error.UserException;
import org.junit.jupiter.api.Test;

/** The jheartbeat.yaml inputs its fuzzer (docs/fuzzing.md) found mishandled, shrunk. */
class JheartbeatYamlFuzzRegressionTest {
    private static final Path FILE = Path.of("/etc/ha.d/jheartbeat.yaml");

    /** JheartbeatYamlFuzzTest, long run: snakeyaml names the end of the text as a NUL character, which went into the message. */
    @Test
    void aQuotedValueFollowedByAStrayCharacterAtTheEndIsNamedWithoutANul() {
        assertThatThrownBy(() -> JheartbeatYaml.parse("metrics:\n  listen:\n    node2: \"[::1]:9811\"*", FILE, Optional.empty()))
                .isInstanceOf(UserException.class)
                .satisfies(e -> assertThat(e.getMessage()).startsWith("/etc/ha.d/jheartbeat.yaml:3: YAML syntax error: ")
                        .doesNotContain("\0").contains("\\x00"));
    }

    /**
     * JheartbeatYamlFuzzTest, long run (shrunk): a double-quoted value folded over lines keeps a line
     * break, and the problem quotes it raw, so one problem prints as two lines (the second without
     * FILE:LINE); every message now goes through YamlNodes.oneLine.
     */
    @Test
    void aValueFoldedOverLinesIsQuotedOnOneLine() {
        assertThatThrownBy(() -> JheartbeatYaml.parse("metrics:\n  listen:\n    node2: \"[:###\n\n:1]:9811\"\n", FILE,
                Optional.empty()))
                .isInstanceOf(UserException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
