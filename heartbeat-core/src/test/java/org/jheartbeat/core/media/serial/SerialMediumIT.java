package org.jheartbeat.core.media.serial;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.media.FrameSink;
import org.jheartbeat.core.wire.ClassicCodec;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.WireCodec;
import org.jheartbeat.core.time.MonotonicClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@link SerialMedium} instances on a null-modem line made of a socat PTY pair
 * ({@code socat PTY,link=a,raw,echo=0 PTY,link=b,raw,echo=0}), at 19200 baud, exchanging real
 * classic status messages. The test owns its socat process and ends it by its pid.
 */
class SerialMediumIT {
    private static final int BAUD = 19200;
    private static final MessageAuthenticator SHA1_TESTSECRET =
            new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, "testsecret".getBytes(US_ASCII)));
    private static final MonotonicClock CLOCK = MonotonicClock.system();
    /**
     * How long to wait for what must happen: only a hang takes this long. Timing on this machine
     * (socat, the scheduler, the load) is printed as a FIGURE line, not asserted: CI runs on a busy
     * 2-core machine, where a time bound would only flake.
     */
    private static final Duration HANG = Duration.ofSeconds(60);

    @TempDir
    Path tmp;
    private Path a;
    private Path b;
    private Path lockDir;
    private Process socat;
    private final List<SerialMedium> media = new ArrayList<>();

    @BeforeEach
    void plugIn() throws IOException {
        a = tmp.resolve("a");
        b = tmp.resolve("b");
        lockDir = Files.createDirectory(tmp.resolve("lock"));
        plugCable();
    }

    @AfterEach
    void unplug() throws InterruptedException {
        media.forEach(SerialMedium::close);
        unplugCable();
    }

    @Test
    void realStatusFramesCrossTheLineBothWays() throws Exception {
        Received atB = new Received();
        Received atA = new Received();
        SerialMedium mediumA = start(a, atA);
        SerialMedium mediumB = start(b, atB);
        List<byte[]> sent = new ArrayList<>();
        for (int seq = 1; seq <= 5; seq++) {
            sent.add(statusFrame("node1", seq));
            mediumA.sendFrame(sent.get(seq - 1));
        }
        mediumB.sendFrame(statusFrame("node2", 1));

        await().atMost(HANG).until(() -> atB.frames.size() == 5 && atA.frames.size() == 1);
        assertThat(atB.frames).containsExactlyElementsOf(sent);
        for (byte[] f : atB.frames) {
            assertThat(ClassicCodec.decodeAndVerify(f, SHA1_TESTSECRET).get("src")).contains("node1");
        }
        assertThat(ClassicCodec.decodeAndVerify(atA.frames.get(0), SHA1_TESTSECRET).get("src")).contains("node2");
        assertThat(atB.links).containsOnly(b.toString());
        assertThat(atB.sources).containsOnly(b.toString());
        assertThat(mediumB.serialStats().framesReceived()).isEqualTo(5);
        assertThat(mediumB.serialStats().garbageBytes()).isZero();
        assertThat(mediumA.serialStats().framesDroppedOnSend()).isZero();
    }

    @Test
    void writesNeverOutrunTheLineRate() {
        Received atB = new Received();
        SerialMedium mediumA = start(a, new Received());
        start(b, atB);
        long bytes = 0;
        long t0 = CLOCK.nanoTime();
        for (int seq = 1; bytes < 4000; seq++) {
            byte[] f = statusFrame("node1", seq);
            mediumA.sendFrame(f);
            bytes += f.length;
        }
        byte[] marker = statusFrame("node1", 999);
        mediumA.sendFrame(marker);

        await().atMost(HANG).until(() -> atB.contains(marker));
        long elapsedNanos = CLOCK.nanoTime() - t0;
        long lineNanos = bytes * 10 * 1_000_000_000L / BAUD;
        System.out.printf("FIGURE serial_pacing_ms=%d ms (%d bytes then a marker; the 8N1 line time at %d baud is %d ms;"
                + " %.0f bytes/s measured, %d bytes/s allowed)%n", elapsedNanos / 1_000_000, bytes, BAUD,
                lineNanos / 1_000_000, bytes * 1e9 / elapsedNanos, BAUD / 10);
        // never faster than the line, whatever the load; how much slower is the machine's (the pacer's
        // own delays are SerialPacerTest's, on a fake clock)
        assertThat(elapsedNanos).isGreaterThanOrEqualTo(lineNanos);
    }

    @Test
    void garbageOnTheLineDoesNotStopLaterFrames() {
        Received atB = new Received();
        SerialMedium mediumA = start(a, new Received());
        SerialMedium mediumB = start(b, atB);
        byte[] noise = new byte[3000];
        new Random(1).nextBytes(noise);
        noise[noise.length - 1] = '\n';
        byte[] before = statusFrame("node1", 1);
        byte[] after = statusFrame("node1", 2);

        mediumA.sendFrame(before);
        mediumA.sendFrame(noise); // the medium frames nothing: these bytes go onto the line as they are
        mediumA.sendFrame(after);

        await().atMost(HANG).until(() -> atB.frames.size() == 2);
        assertThat(atB.frames).containsExactly(before, after);
        assertThat(mediumB.serialStats().garbageBytes()).isPositive();
    }

    @Test
    void unpluggedThenReplugged_framesFlowAgainWithoutRestartingTheMedia() throws Exception {
        Received atB = new Received();
        SerialMedium mediumA = start(a, new Received());
        SerialMedium mediumB = start(b, atB);
        mediumA.sendFrame(statusFrame("node1", 1));
        await().atMost(HANG).until(() -> atB.frames.size() == 1);

        unplugCable();
        await().atMost(HANG).until(() -> !mediumA.serialStats().connected() && !mediumB.serialStats().connected());
        assertThat(mediumA.lockFile()).isEmpty();
        plugCable();

        int[] seq = {2};
        await().atMost(HANG).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
            mediumA.sendFrame(statusFrame("node1", seq[0]++));
            assertThat(atB.frames).hasSizeGreaterThan(1);
        });
        assertThat(ClassicCodec.decodeAndVerify(atB.frames.get(1), SHA1_TESTSECRET).get("src")).contains("node1");
        assertThat(mediumA.serialStats().reopenCount()).isEqualTo(1);
        assertThat(mediumB.serialStats().reopenCount()).isEqualTo(1);
        assertThat(mediumA.serialStats().connected()).isTrue();
    }

    @Test
    void aPeerThatNeverReadsGivesWriteTimeoutsAndCloseStillReturns() {
        SerialMedium fast = new SerialMedium(a, 460800, a.toString(), lockDir, CLOCK); // nobody opens b
        media.add(fast);
        try {
            fast.start(new Received());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        byte[] frame = statusFrame("node1", 1);

        await().atMost(HANG).pollInterval(Duration.ofMillis(50)).until(() -> {
            for (int i = 0; i < 20; i++) {
                fast.sendFrame(frame);
            }
            return fast.serialStats().writeTimeouts() > 0;
        });
        long t0 = CLOCK.nanoTime();
        fast.close();

        long closeNanos = CLOCK.nanoTime() - t0;
        System.out.printf("FIGURE serial_close_blocked_ms=%d ms (close() of a medium whose peer never reads)%n",
                closeNanos / 1_000_000);
        assertThat(fast.serialStats().framesDroppedOnSend()).isPositive();
        assertThat(fast.lockFile()).isEmpty();
        assertThat(closeNanos).as("close() returns").isLessThan(HANG.toNanos());
    }

    @Test
    void theLockFileHoldsOurPidWhileOpenAndIsRemovedOnClose() throws Exception {
        SerialMedium mediumA = start(a, new Received());
        Path lock = lockDir.resolve("LCK.." + a.toRealPath().getFileName());

        assertThat(mediumA.lockFile()).contains(lock);
        assertThat(Files.readString(lock, US_ASCII)).isEqualTo(String.format("%10d\n", ProcessHandle.current().pid()));
        mediumA.close();
        mediumA.close();

        assertThat(lock).doesNotExist();
    }

    @Test
    void aSecondMediumOnTheSameDeviceIsRefused() {
        start(a, new Received());
        SerialMedium second = new SerialMedium(a, BAUD, a.toString(), lockDir, CLOCK);
        media.add(second);

        assertThatThrownBy(() -> second.start(new Received()))
                .isInstanceOf(IOException.class).hasMessageContaining("held by live pid");
    }

    @Test
    void aStaleLockIsTakenOver() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path lock = lockDir.resolve("LCK.." + a.toRealPath().getFileName());
        Files.writeString(lock, String.format("%10d\n", gone.pid()), US_ASCII);

        start(a, new Received());

        assertThat(Files.readString(lock, US_ASCII).trim()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
    }

    @Test
    void startRefusesAMissingDeviceOrOneThatIsNotACharacterDevice() throws Exception {
        SerialMedium missing = new SerialMedium(tmp.resolve("nope"), BAUD, "nope", lockDir, CLOCK);
        Path file = Files.writeString(tmp.resolve("plain"), "not a tty");
        SerialMedium plain = new SerialMedium(file, BAUD, "plain", lockDir, CLOCK);
        media.add(missing);
        media.add(plain);

        assertThatThrownBy(() -> missing.start(new Received())).isInstanceOf(IOException.class)
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> plain.start(new Received())).isInstanceOf(IOException.class)
                .hasMessageContaining("not a character device");
    }

    private SerialMedium start(Path device, Received sink) {
        SerialMedium m = new SerialMedium(device, BAUD, device.toString(), lockDir, CLOCK);
        media.add(m);
        try {
            m.start(sink);
        } catch (IOException e) {
            throw new AssertionError("cannot start " + m.describe(), e);
        }
        return m;
    }

    private void plugCable() throws IOException {
        socat = new ProcessBuilder("socat", "PTY,link=" + a + ",raw,echo=0", "PTY,link=" + b + ",raw,echo=0")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("socat.log").toFile()).start();
        await().atMost(HANG).until(() -> Files.exists(a) && Files.exists(b));
    }

    /** Ends this test's socat by its pid (SIGTERM, so it removes its links; SIGKILL if it lingers). */
    private void unplugCable() throws InterruptedException {
        Process p = socat;
        socat = null;
        if (p == null) {
            return;
        }
        p.destroy();
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static byte[] statusFrame(String src, int seq) {
        HaMessage m = HaMessage.builder().add("t", "status").add("st", "active").add("dt", "1388")
                .add("protocol", "1").add("src", src).addBinary("srcuuid", new byte[16])
                .add("seq", Integer.toHexString(seq)).add("hg", "6b0c6e82").add("ts", "6b0c6eae")
                .add("ld", "0.18 0.20 0.13 4/112 3074").add("ttl", "3").build();
        return WireCodec.encodeForSerial(m, SHA1_TESTSECRET);
    }

    /** A sink that records frames with their link and source. */
    private static final class Received implements FrameSink {
        final List<byte[]> frames = new CopyOnWriteArrayList<>();
        final List<String> links = new CopyOnWriteArrayList<>();
        final List<String> sources = new CopyOnWriteArrayList<>();

        @Override
        public void onFrame(String link, String source, byte[] frame) {
            links.add(link);
            sources.add(source);
            frames.add(frame);
        }

        boolean contains(byte[] frame) {
            return frames.stream().anyMatch(f -> java.util.Arrays.equals(f, frame));
        }
    }
}
