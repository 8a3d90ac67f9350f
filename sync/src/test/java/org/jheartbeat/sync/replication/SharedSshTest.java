package org.jheartbeat.sync.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedSshTest {
    @TempDir
    Path state;

    @Test
    void optionsGoRightAfterTheSshWordBeforeTheAdminsOwn() {
        List<String> admin = List.of("ssh", "-F", "none", "-i", "/k", "-o", "ControlPath=/x", "-o", "BatchMode=yes", "-l", "root");
        assertThat(SharedSsh.sshWord(admin)).isEqualTo(OptionalInt.of(0));
        assertThat(SharedSsh.insert(admin, 0, SharedSsh.masterOptions(Path.of("/s/m")))).containsExactly("ssh",
                "-o", "ControlMaster=yes", "-o", "ControlPath=/s/m", "-o", "ControlPersist=no",
                "-F", "none", "-i", "/k", "-o", "ControlPath=/x", "-o", "BatchMode=yes", "-l", "root");
        assertThat(SharedSsh.insert(admin, 0, SharedSsh.clientOptions(Path.of("/s/m")))).containsExactly("ssh",
                "-o", "ControlMaster=no", "-o", "ControlPath=/s/m",
                "-F", "none", "-i", "/k", "-o", "ControlPath=/x", "-o", "BatchMode=yes", "-l", "root");
        // a program in front of ssh keeps its place
        List<String> pass = List.of("sshpass", "-f", "/etc/pw", "/usr/bin/ssh", "-p", "2222");
        assertThat(SharedSsh.sshWord(pass)).isEqualTo(OptionalInt.of(3));
        assertThat(SharedSsh.insert(pass, 3, List.of("-o", "A=b"))).containsExactly("sshpass", "-f", "/etc/pw",
                "/usr/bin/ssh", "-o", "A=b", "-p", "2222");
    }

    @Test
    void noSharingForAWrapperOrAnAdminsOwnMasterFlags() {
        assertThat(SharedSsh.sshWord(List.of("/usr/local/sbin/hb-ssh", "-o", "BatchMode=yes"))).isEmpty();
        assertThat(SharedSsh.sshWord(List.of("ssh", "-S", "/run/cm"))).isEmpty();
        assertThat(SharedSsh.sshWord(List.of("ssh", "-qM"))).isEmpty();
        assertThat(SharedSsh.sshWord(List.of("ssh", "-S/run/cm"))).isEmpty();
        // the arguments of other flags are not flags: -i S, -oSendEnv=M, -l M
        assertThat(SharedSsh.sshWord(List.of("ssh", "-i", "-S", "-oSendEnv=M", "-l", "M", "-4C")))
                .isEqualTo(OptionalInt.of(0));
    }

    @Test
    void socketPathsSshWouldRefuseOrExpandAreNotUsed() {
        assertThat(SharedSsh.usableSocket(Path.of("/var/lib/jheartbeat/sync/ssh-web@123/m"))).isTrue();
        assertThat(SharedSsh.usableSocket(Path.of("/" + "d".repeat(88) + "/m"))).isFalse();
        assertThat(SharedSsh.usableSocket(Path.of("/var/lib/with blank/m"))).isFalse();
        assertThat(SharedSsh.usableSocket(Path.of("/var/lib/100%/m"))).isFalse();
        assertThat(SharedSsh.usableSocket(Path.of("relative/m"))).isFalse();
    }

    @Test
    void aPrivateDirectoryPerRunRemovedAtTheEndAndLeftoversOfTheJobOnly() throws Exception {
        Path leftover = Files.createDirectories(state.resolve("ssh-web@42"));
        Files.writeString(leftover.resolve("m"), "");
        Path otherJob = Files.createDirectories(state.resolve("ssh-web.x@42"));

        SharedSsh shared = SharedSsh.open(List.of("ssh", "-o", "BatchMode=yes"), state, "web").orElseThrow();

        Path dir = shared.socket().getParent();
        assertThat(dir.getParent()).isEqualTo(state.toAbsolutePath().normalize());
        assertThat(dir.getFileName().toString()).startsWith("ssh-web@");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(leftover).doesNotExist();
        assertThat(otherJob).exists();
        assertThat(shared.masterSsh()).contains("ControlPath=" + shared.socket());
        Files.writeString(shared.socket(), "");
        shared.close();
        assertThat(dir).doesNotExist();
    }

    @Test
    void noSharingWhenTheSocketPathWouldBeTooLong() throws Exception {
        Path deep = Files.createDirectories(state.resolve("d".repeat(80)));
        assertThat(SharedSsh.open(List.of("ssh"), deep, "web")).isEmpty();
        assertThat(SharedSsh.open(List.of("hb-ssh"), state, "web")).isEmpty();
    }

    @Test
    void awaitsTheSocketOrTheMastersEnd() throws Exception {
        SharedSsh shared = SharedSsh.open(List.of("ssh"), state, "web").orElseThrow();
        try {
            AtomicBoolean ended = new AtomicBoolean();
            assertThat(shared.awaitMaster(ended::get, 2)).isFalse(); // the bound
            ended.set(true);
            assertThat(shared.awaitMaster(ended::get, 1_000_000)).isFalse();
            ended.set(false);
            CompletableFuture<Boolean> up = CompletableFuture.supplyAsync(() -> {
                try {
                    return shared.awaitMaster(ended::get, 1_000_000);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Files.writeString(shared.socket(), "");
            assertThat(up.get(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            shared.close();
        }
    }
}
