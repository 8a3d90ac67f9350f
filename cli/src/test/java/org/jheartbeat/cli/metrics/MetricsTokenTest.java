package org.jheartbeat.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The token file: read only when nobody but its owner can read or change it, and only a usable token. */
class MetricsTokenTest {
    @TempDir
    Path dir;

    private Path file(String text, String mode) throws Exception {
        Path f = dir.resolve("metrics.token");
        Files.writeString(f, text);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    @Test
    void aPrivateFileWithOneLongLineIsTheToken() throws Exception {
        assertThat(MetricsToken.read(file("0123456789abcdef0123\n", "rw-------"))).isEqualTo("0123456789abcdef0123");
        assertThat(MetricsToken.read(file("0123456789abcdef0123\nsecond line\n", "r--------")))
                .isEqualTo("0123456789abcdef0123");
    }

    @Test
    void aFileOthersCanReadOrWriteAShortTokenOrNoFileAreRefusedWithWhatToDo() throws Exception {
        assertThatThrownBy(() -> MetricsToken.read(file("0123456789abcdef0123\n", "rw-r--r--")))
                .isInstanceOf(MetricsToken.Refused.class)
                .hasMessage(dir.resolve("metrics.token") + ": is mode rw-r--r--, readable or writable by others than"
                        + " its owner; run chmod 600 " + dir.resolve("metrics.token"));
        assertThatThrownBy(() -> MetricsToken.read(file("0123456789abcdef0123\n", "rw--w----")))
                .hasMessageContaining("run chmod 600");
        assertThatThrownBy(() -> MetricsToken.read(file("short\n", "rw-------")))
                .hasMessageContaining("at least 16 visible ASCII characters");
        assertThatThrownBy(() -> MetricsToken.read(file("0123456789 abcdef0123\n", "rw-------")))
                .hasMessageContaining("without blanks");
        assertThatThrownBy(() -> MetricsToken.read(dir.resolve("none")))
                .hasMessage(dir.resolve("none") + ": does not exist; write a token with: openssl rand -hex 32 > "
                        + dir.resolve("none") + " && chmod 600 " + dir.resolve("none"));
    }
}
