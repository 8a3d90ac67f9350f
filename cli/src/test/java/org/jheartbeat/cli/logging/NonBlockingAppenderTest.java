package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.jheartbeat.core.testkit.FakeClock;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.Sleeper;
import org.junit.jupiter.api.Test;

class NonBlockingAppenderTest {
    /** Only catches a hang; the figure is printed, not asserted. */
    private static final Duration HANG = Duration.ofSeconds(60);

    private final LoggerContext ctx = new LoggerContext();

    {
        ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter()); // as slf4j's provider does
    }
    private final BlockingOutput out = new BlockingOutput();
    private final LongAdder dropped = new LongAdder();

    private NonBlockingAppender queue(int capacity) {
        return queue(capacity, MonotonicClock.system(), Sleeper.system());
    }

    private NonBlockingAppender queue(int capacity, MonotonicClock clock, Sleeper sleeper) {
        PatternLayoutEncoder enc = new PatternLayoutEncoder();
        enc.setContext(ctx);
        enc.setPattern("%level %msg%n");
        enc.start();
        OutputStreamAppender<ILoggingEvent> a = new OutputStreamAppender<>();
        a.setContext(ctx);
        a.setName("blocked");
        a.setEncoder(enc);
        a.setOutputStream(out);
        NonBlockingAppender q = new NonBlockingAppender(a, capacity, dropped, clock, sleeper);
        q.setContext(ctx);
        q.setName("blocked");
        q.start();
        Logger l = ctx.getLogger("heartbeat");
        l.addAppender(q);
        return q;
    }

    @Test
    void aHundredThousandLinesToAnOutputThatNeverReturnsComeBackAtOnceAndAreCountedAsDropped() throws Exception {
        NonBlockingAppender q = queue(256);
        Logger log = ctx.getLogger("heartbeat");
        long t0 = System.nanoTime();
        assertTimeoutPreemptively(HANG, () -> {
            for (int i = 0; i < 100_000; i++) {
                log.info("line {}", i);
            }
        });
        System.out.printf("100000 lines logged to a stuck output in %d ms; %d dropped%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), dropped.sum());
        // the writer holds at most one line (stuck in write), the queue at most 256
        assertThat(dropped.sum()).isGreaterThanOrEqualTo(100_000 - 257);

        out.release();
        assertThat(q.stop(TimeUnit.SECONDS.toMillis(60))).isTrue();
        long lines = out.text().lines().count();
        assertThat(lines).isEqualTo(100_000 - dropped.sum());
        assertThat(out.text()).startsWith("INFO line 0\n");
    }

    @Test
    void whenTheQueueIsNearlyFullOnlyWarningsAndErrorsGetIn() throws Exception {
        queue(10);
        Logger log = ctx.getLogger("heartbeat");
        log.info("taken by the writer");
        assertThat(out.entered.await(60, TimeUnit.SECONDS)).isTrue(); // the writer is now stuck on it
        for (int i = 0; i < 12; i++) {
            log.info("info {}", i); // 9 get in (while 2 or more slots are free), 3 dropped
        }
        assertThat(dropped.sum()).isEqualTo(3);
        log.warn("a warning"); // the 10th slot
        log.error("an error"); // no slot left
        assertThat(dropped.sum()).isEqualTo(4);
        out.release();
        ctx.getLogger("heartbeat").iteratorForAppenders().forEachRemaining(a -> ((NonBlockingAppender) a).stop(60_000));
        assertThat(out.text()).contains("INFO info 8\n").doesNotContain("info 9").contains("WARN a warning")
                .doesNotContain("an error");
    }

    @Test
    void flushOnAStuckOutputGivesUpAtTheDeadlineOfTheInjectedClock() {
        FakeClock clock = new FakeClock();
        List<Duration> pauses = new ArrayList<>();
        NonBlockingAppender q = queue(16, clock, pause -> {
            pauses.add(pause);
            clock.advance(pause);
        });
        ctx.getLogger("heartbeat").warn("never written");
        assertThat(q.flush(1_000)).isFalse();
        assertThat(pauses).hasSize(200).containsOnly(Duration.ofMillis(5));
        out.release();
    }

    @Test
    void stoppingWithAStuckOutputGivesUpAfterTheBound() {
        NonBlockingAppender q = queue(16);
        ctx.getLogger("heartbeat").warn("never written");
        boolean flushed = assertTimeoutPreemptively(HANG, () -> q.stop(200));
        assertThat(flushed).isFalse();
        assertThat(q.isStarted()).isFalse();
        out.release();
    }
}
