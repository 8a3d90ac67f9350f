package org.jheartbeat.core.media.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jheartbeat.core.testkit.FakeClock;
import org.junit.jupiter.api.Test;

/** {@link SerialPacer} with fake time: the writer never runs ahead of an 8N1 line by more than one fragment. */
class SerialPacerTest {
    private final FakeClock clock = new FakeClock();

    @Test
    void lineTimeIsTenBitsPerByteRoundedUp() {
        SerialPacer pacer = new SerialPacer(19200);

        assertThat(pacer.lineTimeNanos(512)).isEqualTo(266_666_667L); // 5120 bits / 19200 bit/s
        assertThat(pacer.lineTimeNanos(1920)).isEqualTo(1_000_000_000L);
        assertThat(pacer.lineTimeNanos(0)).isZero();
        assertThat(new SerialPacer(460800).lineTimeNanos(512)).isEqualTo(11_111_112L);
    }

    @Test
    void fragmentsAreAtMost512Bytes() {
        SerialPacer pacer = new SerialPacer(19200);

        assertThat(pacer.nextFragmentBytes(2000)).isEqualTo(512);
        assertThat(pacer.nextFragmentBytes(300)).isEqualTo(300);
    }

    @Test
    void anIdleLineTakesTheFirstFragmentAtOnce() {
        SerialPacer pacer = new SerialPacer(19200);

        assertThat(pacer.delayNanos(clock.nanoTime())).isZero();
    }

    @Test
    void theNextFragmentWaitsForTheLineToCarryThePreviousOne() {
        SerialPacer pacer = new SerialPacer(19200);
        pacer.wrote(512, clock.nanoTime());

        assertThat(pacer.delayNanos(clock.nanoTime())).isEqualTo(266_666_667L);
        assertThat(pacer.delayNanos(clock.advanceMillis(100))).isEqualTo(166_666_667L);
        assertThat(pacer.delayNanos(clock.advanceMillis(200))).isZero();
    }

    @Test
    void writingAsSoonAsAllowedNeverExceedsTheLineRate() {
        SerialPacer pacer = new SerialPacer(19200);
        long start = clock.nanoTime();
        long total = 0;

        for (int i = 0; i < 40; i++) { // 40 fragments of 512 bytes
            clock.advance(java.time.Duration.ofNanos(pacer.delayNanos(clock.nanoTime())));
            assertThat(pacer.delayNanos(clock.nanoTime())).isZero();
            // everything before this fragment has had its full line time
            assertThat(clock.nanoTime() - start).isGreaterThanOrEqualTo(pacer.lineTimeNanos((int) total));
            pacer.wrote(512, clock.nanoTime());
            total += 512;
        }
        long elapsedBeforeNextWrite = clock.nanoTime() - start + pacer.delayNanos(clock.nanoTime());
        assertThat(elapsedBeforeNextWrite).isGreaterThanOrEqualTo(total * 10 * 1_000_000_000L / 19200);
        assertThat(elapsedBeforeNextWrite).isLessThan(total * 10 * 1_000_000_000L / 19200 + 1_000);
    }

    @Test
    void anIdleGapIsNotBankedAsCredit() {
        SerialPacer pacer = new SerialPacer(9600);
        pacer.wrote(100, clock.nanoTime());

        clock.advanceMillis(10_000);
        pacer.wrote(512, clock.nanoTime());

        assertThat(pacer.delayNanos(clock.nanoTime())).isEqualTo(pacer.lineTimeNanos(512));
    }

    @Test
    void writesQueuedBehindABusyLineStartWhenItFrees() {
        SerialPacer pacer = new SerialPacer(19200);
        pacer.wrote(512, clock.nanoTime());
        pacer.wrote(512, clock.nanoTime()); // a write the caller made without waiting

        assertThat(pacer.delayNanos(clock.nanoTime())).isEqualTo(2 * 266_666_667L);
    }

    @Test
    void rejectsNonPositiveBaud() {
        assertThatThrownBy(() -> new SerialPacer(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
