package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.testkit.FakeClock;
import org.junit.jupiter.api.Test;

class SyslogStreamTest {
    private final FakeClock clock = new FakeClock();
    private final List<String> sent = new ArrayList<>();
    private final List<String> reports = new ArrayList<>();
    private int attempts;
    private boolean down;

    private final SyslogStream.DatagramSender sender = new SyslogStream.DatagramSender() {
        @Override
        public void send(byte[] record) throws IOException {
            attempts++;
            if (down) {
                throw new IOException("Connection refused");
            }
            sent.add(new String(record, StandardCharsets.UTF_8));
        }

        @Override
        public String describe() {
            return "/dev/log";
        }

        @Override
        public void close() {
        }
    };

    private final SyslogStream stream = new SyslogStream(sender, new SyslogStream.Reporter() {
        @Override
        public void unavailable(String socket, String reason) {
            reports.add("unavailable " + socket + ": " + reason);
        }

        @Override
        public void available(String socket, long recordsLost) {
            reports.add("available " + socket + " lost " + recordsLost);
        }
    }, clock);

    private void write(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        stream.write(b, 0, b.length);
    }

    @Test
    void eachWriteIsOneDatagram() {
        write("<134>a");
        write("<132>b");
        assertThat(sent).containsExactly("<134>a", "<132>b");
        assertThat(reports).isEmpty();
        assertThat(stream.recordsLost()).isZero();
    }

    @Test
    void aSocketThatRefusesIsReportedOnceRecordsAreCountedAndRetriedAfterTheInterval() {
        down = true;
        write("r1");
        assertThat(reports).containsExactly("unavailable /dev/log: Connection refused");
        assertThat(stream.failing()).isTrue();
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(1));
            write("r" + (i + 2));
        }
        // within the retry interval nothing is tried: no system call per record while syslog is down
        assertThat(attempts).isEqualTo(1);
        clock.advance(Duration.ofSeconds(SyslogStream.RETRY_INTERVAL_S));
        write("r7"); // tried, still refused: not reported again
        assertThat(attempts).isEqualTo(2);
        assertThat(reports).hasSize(1);
        assertThat(stream.recordsLost()).isEqualTo(7);

        down = false;
        clock.advance(Duration.ofSeconds(SyslogStream.RETRY_INTERVAL_S - 1));
        write("r8"); // the interval is not over: dropped without trying
        assertThat(attempts).isEqualTo(2);
        clock.advance(Duration.ofSeconds(1));
        write("r9");
        assertThat(sent).containsExactly("r9");
        assertThat(reports).containsExactly("unavailable /dev/log: Connection refused", "available /dev/log lost 8");
        assertThat(stream.failing()).isFalse();
        assertThat(stream.recordsLost()).isEqualTo(8);
        write("r10");
        assertThat(sent).containsExactly("r9", "r10");
        assertThat(reports).hasSize(2);
    }
}
