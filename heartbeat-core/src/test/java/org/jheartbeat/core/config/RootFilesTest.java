package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who may write the files whose contents run as root (real files; the owner test needs root). */
class RootFilesTest {
    @TempDir
    Path dir;

    @Test
    void aHaresourcesOwnedByAnotherUserIsAnError() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "chown needs root");
        Path cfg = ConfigDirBuilder.validTwoNode().writeTo(dir.resolve("cfg"));
        Path f = cfg.resolve("haresources");
        Files.setOwner(f, f.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        ConfigLoadResult r = ConfigLoader.load(cfg, Optional.empty());
        assertThat(r.errors()).extracting(ConfigDiagnostic::format).anySatisfy(m -> assertThat(m)
                .startsWith(f + ":0: haresources is owned by uid ").endsWith("chown root " + f));
    }

    @Test
    void aGroupWritableConfigDirectoryIsAnError() throws Exception {
        Path cfg = ConfigDirBuilder.validTwoNode().writeTo(dir.resolve("cfg"));
        Files.setPosixFilePermissions(cfg, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxr-x"));
        ConfigLoadResult r = ConfigLoader.load(cfg, Optional.empty());
        assertThat(r.errors()).extracting(ConfigDiagnostic::format).contains(cfg + ":0: the config directory is mode"
                + " 775, writable by others than root, and its contents run as root; chmod go-w " + cfg);
        assertThat(r.config()).isEmpty();
    }
}
