package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFileStreamTest {
    private final List<String> reports = new ArrayList<>();
    private final LogFileStream.Reporter reporter = new LogFileStream.Reporter() {
        @Override
        public void writeFailed(Path file, IOException error) {
            reports.add("failed " + file + ": " + error.getMessage());
        }

        @Override
        public void writable(Path file, long linesLost) {
            reports.add("writable " + file + " lost " + linesLost);
        }
    };

    /** An output whose writes fail while {@code full} is set, like a full disk. */
    static final class FlakyOutput extends OutputStream {
        boolean full;
        int written;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (full) {
                throw new IOException("No space left on device");
            }
            written++;
        }
    }

    private static void line(LogFileStream s) {
        s.write("a line\n".getBytes(StandardCharsets.US_ASCII), 0, 7);
    }

    @Test
    void aFailingWriteIsReportedOnceNeverThrownAndTheRecoveryOnceWithTheLinesLost() {
        FlakyOutput out = new FlakyOutput();
        LogFileStream s = new LogFileStream(Path.of("/var/log/ha-log"), reporter, f -> out);
        line(s);
        out.full = true;
        for (int i = 0; i < 1000; i++) {
            line(s);
        }
        assertThat(s.failing()).isTrue();
        assertThat(reports).containsExactly("failed /var/log/ha-log: No space left on device");
        out.full = false;
        line(s);
        line(s);
        assertThat(reports).containsExactly("failed /var/log/ha-log: No space left on device",
                "writable /var/log/ha-log lost 1000");
        assertThat(out.written).isEqualTo(3);
        out.full = true;
        line(s);
        assertThat(reports).hasSize(3).last().isEqualTo("failed /var/log/ha-log: No space left on device");
    }

    @Test
    void aFileThatCannotBeOpenedIsReportedOnceAndOpenedLaterWhenItCanBe() {
        FlakyOutput out = new FlakyOutput();
        boolean[] openable = {false};
        LogFileStream s = new LogFileStream(Path.of("/x/ha-debug"), reporter, f -> {
            if (!openable[0]) {
                throw new IOException("Permission denied");
            }
            return out;
        });
        line(s);
        line(s);
        assertThat(reports).containsExactly("failed /x/ha-debug: Permission denied");
        openable[0] = true;
        line(s);
        assertThat(reports).containsExactly("failed /x/ha-debug: Permission denied", "writable /x/ha-debug lost 2");
        assertThat(out.written).isEqualTo(1);
    }

    @Test
    void appendsToTheFileAndMakesMissingDirectories(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("log/ha-log");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "before\n");
        LogFileStream s = new LogFileStream(file, reporter);
        line(s);
        s.close();
        assertThat(Files.readString(file)).isEqualTo("before\na line\n");
        LogFileStream t = new LogFileStream(dir.resolve("new/dir/ha-debug"), reporter);
        line(t);
        t.close();
        assertThat(Files.readString(dir.resolve("new/dir/ha-debug"))).isEqualTo("a line\n");
        assertThat(reports).isEmpty();
    }
}
