package org.jheartbeat.core.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SleeperTest {
    @Test
    void zeroAndNegativePausesReturnAtOnceEvenWhenInterrupted() throws Exception {
        Thread.currentThread().interrupt();
        try {
            Sleeper.system().pause(Duration.ZERO);
            Sleeper.system().pause(Duration.ofMillis(-5));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anInterruptEndsThePauseWithInterruptedException() {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> Sleeper.system().pause(Duration.ofHours(1)))
                .isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).as("cleared, as Thread.sleep does").isFalse();
    }

    @Test
    void aSubMillisecondPauseStillSleeps() {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> Sleeper.system().pause(Duration.ofNanos(300_000)))
                .as("it reaches Thread.sleep, which sees the interrupt")
                .isInstanceOf(InterruptedException.class);
    }
}
