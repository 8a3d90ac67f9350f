package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link Deadline} on an injected clock: what is left moves only when that clock does. */
class DeadlineTest {

    @Test
    void whatIsLeftIsMeasuredOnTheInjectedClockAndAnExpiredDeadlineThrowsAsASocketTimeout() throws Exception {
        AtomicLong nanos = new AtomicLong(5_000_000_000L);
        Deadline d = Deadline.in(Duration.ofMillis(100), nanos::get);
        assertThat(d.remainingMillis()).isEqualTo(100);
        assertThat(d.totalMillis()).isEqualTo(100);
        nanos.addAndGet(40_000_000L);
        assertThat(d.remainingMillis()).isEqualTo(60);
        assertThat(d.socketTimeout()).isEqualTo(60);
        nanos.addAndGet(60_000_000L);
        assertThat(d.remainingMillis()).isZero();
        assertThatThrownBy(d::socketTimeout).isInstanceOf(SocketTimeoutException.class)
                .hasMessage("no answer within the check timeout of 100 ms");
    }

    @Test
    void aZeroTimeoutIsOneMillisecond() {
        AtomicLong nanos = new AtomicLong();
        Deadline d = Deadline.in(Duration.ZERO, nanos::get);
        assertThat(d.totalMillis()).isEqualTo(1);
        assertThat(d.remainingMillis()).isEqualTo(1);
    }
}
