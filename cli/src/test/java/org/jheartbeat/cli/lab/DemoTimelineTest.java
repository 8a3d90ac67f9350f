package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The demo's timeline (lab/timeline.sh, which lab/demo.sh and so ./demo.sh print through), run on fixed
 * events: lines in time order, every time from the one reference point named in the header; and
 * lab/demo.sh measures failback from node1's power-on and names the log files at the end; so does the town hall
 * demo (lab/townhall/demo.sh), whose one reference point is the daemons' start.
 */
class DemoTimelineTest {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();

    /** bash lab/timeline.sh ARGS with STDIN: {exit code, stdout, stderr}. */
    private static String[] timeline(String stdin, String... args) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("lab/timeline.sh").toString()));
        argv.addAll(List.of(args));
        Path in = Files.createTempFile("timeline", ".in");
        Path out = Files.createTempFile("timeline", ".out");
        Path err = Files.createTempFile("timeline", ".err");
        try {
            Files.writeString(in, stdin);
            ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(in.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            pb.environment().put("TZ", "UTC");
            Process p = pb.start();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            return new String[] {String.valueOf(p.exitValue()), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8)};
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void linesComeInTimeOrderRelativeToTheOneReferenceNamedInTheHeader() throws Exception {
        long off = 1_700_000_000_123L;
        String events = (off + 2954) + " VIP served by node2\n"
                + (off - 374) + " VIP served by node1\n"
                + off + " node1 powered off\n"
                + (off + 718) + "   (VIP answers: nothing)\n"
                + (off + 4072) + " node1 powered on\n"
                + (off + 4072) + " node1's daemon starting\n"
                + (off + 6361) + " VIP served by node1 again";
        String[] r = timeline(events, String.valueOf(off), "node1's power-off");
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        assertThat(r[1]).isEqualTo("""
                times in ms from node1's power-off (wall clock 2023-11-14 22:13:20.123)
                [    -374 ms] VIP served by node1
                [      +0 ms] node1 powered off
                [    +718 ms]   (VIP answers: nothing)
                [   +2954 ms] VIP served by node2
                [   +4072 ms] node1 powered on
                [   +4072 ms] node1's daemon starting
                [   +6361 ms] VIP served by node1 again
                """);
    }

    @Test
    void aMalformedEventOrMissingReferenceIsRefusedWithWhere() throws Exception {
        String[] bad = timeline("1000 fine\nnot a time\n", "1000", "x");
        assertThat(bad[0]).isEqualTo("2");
        assertThat(bad[1]).isEmpty();
        assertThat(bad[2]).isEqualTo("timeline.sh: stdin:2: expected 'EPOCH_MS TEXT', got 'not a time'\n");
        String[] usage = timeline("", "soon");
        assertThat(usage[0]).isEqualTo("2");
        assertThat(usage[2]).startsWith("usage: timeline.sh REF_MS REF_NAME");
    }

    @Test
    void theDemoPrintsThroughTheTimelineMeasuresFailbackFromPowerOnAndNamesItsLogs() throws Exception {
        List<String> demo = Files.readAllLines(ROOT.resolve("lab/demo.sh"));
        String text = String.join("\n", demo);
        assertThat(text).contains("\"$LAB_DIR/timeline.sh\" \"$T0\" \"node1's power-off\"")
                .contains("failback_ms=$((HIT_T - t_on))")
                .contains("$LAB_RUN/node$n/ha-log $LAB_RUN/node$n/daemon.out");
        // t_on is taken before node1 is powered on, not after its daemon has started
        int tOn = demo.indexOf("t_on=$(now_ms)");
        int powerOn = demo.indexOf("\"$L\" poweron node1 2>/dev/null");
        int start = demo.indexOf("\"$L\" start node1 2>/dev/null");
        assertThat(tOn).isNotNegative().isLessThan(powerOn);
        assertThat(powerOn).isLessThan(start);
    }

    @Test
    void theTownhallDemoKeepsOneReferencePointAndMeasuresFailbackFromPowerOn() throws Exception {
        String text = Files.readString(ROOT.resolve("lab/townhall/demo.sh"));
        assertThat(text).contains("\"$HERE/../timeline.sh\" \"$T0\" \"the daemons' start\"")
                .contains("RESULT[$off-failback]=$(($(now_ms) - t))")
                .contains("$LAB_RUN/node1/ha-log $LAB_RUN/node1/daemon.out");
        // the reference is set once, at the daemons' start, never reset per phase
        assertThat(text.split("\n\\s*T0=\\$\\(now_ms\\)", -1)).hasSize(2);
        int tOn = text.indexOf("    t=$(now_ms)\n    \"$L\" poweron \"$off\"");
        assertThat(tOn).as("t taken right before the power-on").isPositive();
    }
}
