package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigDiagnosticTest {
    @Test
    void rawBytesFromABrokenFileAreShownEscaped() {
        ConfigDiagnostic d = ConfigDiagnostic.error(Path.of("/etc/ha.d/ha.cf"), 3, "Illegal directive [\u001b[2J\u00ff]");
        assertThat(d.format()).isEqualTo("/etc/ha.d/ha.cf:3: Illegal directive [\\x1b[2J\\xff]");
    }

    @Test
    void aCrcLineWithAKeyNeverEchoesTheKey() {
        AuthKeysParser.Result r = AuthKeysParser.parse(Path.of("/etc/ha.d/authkeys"), "auth 1\n1 crc topsecret\n");
        assertThat(r.authKeys()).isEqualTo(Optional.empty());
        assertThat(r.diagnostics()).singleElement().satisfies(d -> assertThat(d.format()).doesNotContain("topsecret"));
    }
}
