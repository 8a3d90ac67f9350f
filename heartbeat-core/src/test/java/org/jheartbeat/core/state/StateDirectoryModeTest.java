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

    @Test
    void aNewDirectoryPassesItsCheck() throws Exception {
        StateDirectory state = new StateDirectory(dir.resolve("new"));
        state.create();
        assertThat(state.check()).isEmpty();
    }

    /** The groups file holds haresources lines released as root at the next start: whoever may write it runs them. */
    @Test
    void anExistingDirectoryOthersMayWriteOrReadIsCaught() throws Exception {
        Path state = Files.createDirectories(dir.resolve("loose"));
        StateDirectory sd = new StateDirectory(state);
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxrwxrwx"));
        sd.create();
        assertThat(sd.check()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.format()).isEqualTo(state + ":0: the state directory is mode 777, writable by others than"
                    + " root, and its contents run as root; chmod go-w " + state);
        });

        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(sd.check()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isFalse();
            assertThat(d.format()).contains("the state directory is mode rwxr-xr-x: every local user can read this"
                    + " node's state; chmod o-rwx " + state);
        });

        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxr-x---"));
        Path groups = Files.writeString(state.resolve("groups"), "node1 198.18.0.100 httpd\n");
        Files.setPosixFilePermissions(groups, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThat(sd.check()).singleElement().satisfies(d -> assertThat(d.format()).isEqualTo(groups
                + ":0: the state directory's groups file is mode 666, writable by others than root, and its contents"
                + " run as root; chmod go-w " + groups));
        Files.setPosixFilePermissions(groups, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(sd.check()).isEmpty();
    }
}
