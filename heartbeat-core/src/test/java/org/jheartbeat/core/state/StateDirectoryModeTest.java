package org.jheartbeat.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state directory is created with mode 750, whatever the umask lets through (a real directory). */
class StateDirectoryModeTest {
    @TempDir
    Path dir;

    @Test
    void aNewStateDirectoryAndItsNewParentsAreMode750RightAfterCreation() throws Exception {
        Path state = dir.resolve("var/lib/jheartbeat");
        new StateDirectory(state).create();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state))).isEqualTo("rwxr-x---");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state.getParent())))
                .isEqualTo("rwxr-x---");
    }

    @Test
    void anExistingDirectoryIsLeftAsItIs() throws Exception {
        Path state = Files.createDirectories(dir.resolve("state"));
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-xr-x"));
        new StateDirectory(state).create();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state))).isEqualTo("rwxr-xr-x");
    }
}
