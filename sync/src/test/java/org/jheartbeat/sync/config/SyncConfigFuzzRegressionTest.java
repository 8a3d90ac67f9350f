package org.jheartbeat.sync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What SyncConfigFuzzTest (docs/fuzzing.md) found, each as its minimal input. */
class SyncConfigFuzzRegressionTest {
    private static final Path SRC = Path.of("sync.yaml");

    /**
     * Found by {@code onlySyncConfigExceptionEscapesAndItNamesFileAndLine} (shrunk: a NUL inserted in
     * the packaged example): snakeyaml refuses the character without a line, so the message named no
     * line ({@code sync.yaml: YAML error: special characters are not allowed; fix the file}).
     */
    @Test
    void aControlCharacterIsReportedWithItsLine() {
        assertThatThrownBy(() -> SyncConfigParser.parse("state_dir: /var/lib/jhb\nssh:\u0000\n", SRC))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage("sync.yaml:2: character U+0000 is not allowed in YAML; remove it (a binary or corrupted file?)");
        assertThatThrownBy(() -> SyncConfigParser.parse("\u0000", SRC))
                .hasMessage("sync.yaml:1: character U+0000 is not allowed in YAML; remove it (a binary or corrupted file?)");
    }

    /**
     * Found by the long run (10^6 cases; shrunk: a quoted schedule of the parser tests' file cut by a
     * newline and followed by {@code *}): snakeyaml's scanner throws an error without a mark, so the
     * message named no line ({@code sync.yaml: YAML error: A simple key is required only if it is the
     * first token in the current line; fix the file}).
     */
    @Test
    void aScannerErrorWithoutAMarkIsReportedWithALine() {
        String text = "jobs:\n  web:\n    group: g\n    paths: [/a]\n    target: /mnt/r\n  db:\n    group: h\n"
                + "    paths: [/b, /a/sub]\n    target: /mnt/r\n    schedule: '\ufffd\n\ufffd'* * * *'\n";
        assertThatThrownBy(() -> SyncConfigParser.parse(text, SRC))
                .isInstanceOf(SyncConfigException.class)
                .hasMessageStartingWith("sync.yaml:11: YAML error: A simple key is required only if it is the first"
                        + " token in the current line (here or on the next lines)")
                .extracting(e -> ((SyncConfigException) e).line()).isEqualTo(11);
    }

    /**
     * Found by the long run (shrunk: a CR and newline inside the packaged example's flow mapping): the
     * value YAML folded over two lines was quoted in the message with its newline, which broke the
     * message over two lines.
     */
    @Test
    void aValueWithANewlineIsQuotedOnOneLine() {
        String text = "nodes: {node1: 1\r\n\n98.18.1.1, node2: 198.18.1.2}\n";
        assertThatThrownBy(() -> SyncConfigParser.parse(text, SRC))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage("sync.yaml:1: nodes: node1: [1\\x0a98.18.1.1] is not an address or host name;"
                        + " write the node's crossover-link IP address");
    }

    /**
     * The open finding of the fuzzers: YAML counts a lone CR (or NEL, LS, PS) as a line break, an editor does
     * not, so every later line number was off. Now the character itself is the error, at the editor's line.
     */
    @Test
    void aLoneCarriageReturnIsNamedAtTheEditorsLine() {
        String text = "nodes: {node1: 198.18.1.1, node2: 198.18.1.2}\nsync:\r  interval: 5m\njobs: []\n";
        assertThatThrownBy(() -> SyncConfigParser.parse(text, SRC))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage("sync.yaml:2: a carriage return (CR) without a line feed inside the line: YAML would read"
                        + " it as a line break; save the file with Unix (LF) or DOS (CRLF) line ends only");
        assertThatThrownBy(() -> SyncConfigParser.parse("jobs: []\n# a note\u2028more\n", SRC))
                .hasMessageStartingWith("sync.yaml:2: a line separator U+2028 inside the line");
    }

    /** DOS line ends (CR LF) are line ends, not an error. */
    @Test
    void dosLineEndsAreRead() throws Exception {
        String unix = SyncConfigParserTest.GOOD;
        assertThat(SyncConfigParser.parse(unix.replace("\n", "\r\n"), SRC))
                .isEqualTo(SyncConfigParser.parse(unix, SRC));
    }
}
