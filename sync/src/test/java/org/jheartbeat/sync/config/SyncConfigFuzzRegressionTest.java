package org.jheartbeat.sync.config;

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
}
