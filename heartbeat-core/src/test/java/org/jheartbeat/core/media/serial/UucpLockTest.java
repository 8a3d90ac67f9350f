package org.jheartbeat.core.media.serial;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link UucpLock}: {@code LCK..<name>} with a {@code %10d\n} pid, refused while live, taken over when stale. */
class UucpLockTest {
    private static final Path DEVICE = Path.of("/dev/pts/7");
    private static final long ME = ProcessHandle.current().pid();

    @TempDir
    Path dir;

    @Test
    void writesThePidInUucpAsciiFormAndRemovesItOnRelease() throws IOException {
        UucpLock lock = UucpLock.acquire(dir, DEVICE, ME);

        assertThat(lock.file()).isEqualTo(dir.resolve("LCK..7"));
        assertThat(Files.readString(lock.file(), US_ASCII)).isEqualTo(String.format("%10d\n", ME)).hasSize(11);
        lock.release();
        lock.release();
        assertThat(lock.file()).doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty(); // no temporary file left behind
        }
    }

    @Test
    void aLiveOwnerIsRefusedWithItsPid() throws IOException {
        UucpLock.acquire(dir, DEVICE, ME);

        assertThatThrownBy(() -> UucpLock.acquire(dir, DEVICE, ME))
                .isInstanceOf(IOException.class).hasMessageContaining("held by live pid " + ME);
    }

    @Test
    void aDeadOrUnreadableOwnerIsStale() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(dir.resolve("LCK..7"), String.format("%10d\n", gone.pid()), US_ASCII);
        UucpLock.acquire(dir, DEVICE, ME).release();

        Files.writeString(dir.resolve("LCK..7"), "garbage", US_ASCII);
        assertThat(UucpLock.acquire(dir, DEVICE, ME).file()).exists();
    }

    @Test
    void releaseLeavesALockThatIsNoLongerOurs() throws IOException {
        UucpLock lock = UucpLock.acquire(dir, DEVICE, ME);
        Files.writeString(lock.file(), String.format("%10d\n", 1), US_ASCII);

        lock.release();

        assertThat(lock.file()).exists();
    }

    @Test
    void aMissingLockDirectoryIsAClearError() {
        assertThatThrownBy(() -> UucpLock.acquire(dir.resolve("none"), DEVICE, ME))
                .isInstanceOf(IOException.class).hasMessageContaining("does not exist");
    }

    @Test
    void aLockHeldByAZombieIsStale() throws Exception {
        // the parent execs sleep and never reaps its exited child: a zombie, as a SIGKILLed daemon
        // is until its parent reaps it
        Process parent = new ProcessBuilder("sh", "-c", "sleep 1 & echo $!; exec sleep 60").start();
        try {
            long zombie = Long.parseLong(new java.io.BufferedReader(new java.io.InputStreamReader(
                    parent.getInputStream())).readLine().trim());
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() ->
                    java.nio.file.Files.readString(Path.of("/proc/" + zombie + "/stat")).contains(") Z"));
            assertThat(UucpLock.isLive(zombie)).isFalse();
            assertThat(UucpLock.isLive(parent.pid())).isTrue();
            java.nio.file.Files.writeString(dir.resolve("LCK..7"), String.format("%10d%n", zombie));
            UucpLock lock = UucpLock.acquire(dir, "LCK..7", DEVICE, ME);
            assertThat(lock.file()).hasContent(String.format("%10d", ME));
            lock.release();
        } finally {
            parent.destroyForcibly().waitFor();
        }
    }
}
