package org.jheartbeat.cli.watchdog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The device edge against stand-ins: a regular file collects what a driver would get; a FIFO is read as written. */
class WatchdogTest {
    @TempDir
    Path dir;

    @Test
    void eachPetWritesOneByteThatIsNotVAndTheCloseWritesVLast() throws Exception {
        Path device = Files.createFile(dir.resolve("watchdog"));
        Watchdog w = Watchdog.open(device);
        w.pet();
        w.pet();
        w.pet();
        assertThat(Files.readAllBytes(device)).containsExactly(0, 0, 0);
        w.close();
        assertThat(Files.readAllBytes(device)).containsExactly(0, 0, 0, 'V');
        w.pet();
        w.close();
        assertThat(Files.readAllBytes(device)).as("after the close: nothing more").containsExactly(0, 0, 0, 'V');
        assertThat(w.device()).isEqualTo(device);
    }

    @Test
    void writesAppendAndNeverTruncate() throws Exception {
        Path device = Files.write(dir.resolve("watchdog"), new byte[] {'x'});
        try (Watchdog w = Watchdog.open(device)) {
            w.pet();
        }
        assertThat(Files.readAllBytes(device)).containsExactly('x', 0, 'V');
    }

    @Test
    void aMissingDeviceIsNotCreated() {
        Path missing = dir.resolve("watchdog");
        assertThatThrownBy(() -> Watchdog.open(missing)).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(missing.toString());
        assertThat(missing).doesNotExist();
    }

    @Test
    void aDeviceThatCannotBeOpenedSaysWhyInTheSystemsWords() {
        assertThatThrownBy(() -> Watchdog.open(dir)).hasMessage("Is a directory");
    }

    @Test
    void aFifoReaderSeesThePetsThenVThenTheEnd() throws Exception {
        Path fifo = mkfifo(dir.resolve("watchdog.fifo"));
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                return in.readAllBytes(); // until the writer closes
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Watchdog w = Watchdog.open(fifo); // waits for the reader
        w.pet();
        w.pet();
        w.close();
        assertThat(read.get(60, TimeUnit.SECONDS)).containsExactly(0, 0, 'V');
    }

    @Test
    void aPetWhileTheThreadIsInterruptedStillWritesAndTheCloseStillGivesV() throws Exception {
        Path device = Files.createFile(dir.resolve("watchdog"));
        Watchdog w = Watchdog.open(device);
        Thread.currentThread().interrupt(); // as the loop thread is when the loop closes
        try {
            w.pet();
            w.close();
        } finally {
            assertThat(Thread.interrupted()).isTrue();
        }
        assertThat(Files.readAllBytes(device)).containsExactly(0, 'V');
    }

    static Path mkfifo(Path p) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        assertThat(mk.waitFor()).as("mkfifo %s: %s", p, new String(mk.getInputStream().readAllBytes())).isZero();
        return p;
    }
}
