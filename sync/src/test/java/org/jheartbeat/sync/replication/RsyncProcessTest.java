package org.jheartbeat.sync.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.jheartbeat.core.exec.ProcessResult;
import org.junit.jupiter.api.Test;

/** The capture rules of {@link RsyncProcess}: stdout tail, stderr head, everything to progress. */
class RsyncProcessTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void stdoutKeepsItsTailAndStderrItsHead() {
        RsyncProcess.Keep tail = new RsyncProcess.Keep(4, true, null);
        RsyncProcess.Keep head = new RsyncProcess.Keep(4, false, null);
        for (String s : List.of("abc", "defgh", "ij")) {
            tail.write(bytes(s), 0, s.length());
            head.write(bytes(s), 0, s.length());
        }
        assertThat(tail.text()).isEqualTo("ghij");
        assertThat(head.text()).isEqualTo("abcd");
    }

    @Test
    void progressGetsEveryByteAndABrokenProgressStreamIsDropped() {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        RsyncProcess.Keep keep = new RsyncProcess.Keep(2, true, progress);
        keep.write(bytes("hello"), 0, 5);
        assertThat(progress.toString(StandardCharsets.UTF_8)).isEqualTo("hello");

        RsyncProcess.Keep broken = new RsyncProcess.Keep(8, false, new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("terminal gone");
            }
        });
        broken.write(bytes("abc"), 0, 3);
        broken.write(bytes("def"), 0, 3);
        assertThat(broken.text()).isEqualTo("abcdef");
    }

    @Test
    void runsWithLcAllCAndCopiesOutputToProgress() throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        ProcessResult r = RsyncProcess.run(List.of("/bin/sh", "-c", "echo $LC_ALL; echo oops >&2; exit 23"),
                Duration.ofSeconds(30), progress);
        assertThat(r).isEqualTo(new ProcessResult(23, "C\n", "oops\n", false));
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("C\n").contains("oops\n");
    }
}
