package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The drill's definitions of outage, mixed sample and interleaving, on made-up client samples (times in ms). */
class MigrationSamplesTest {
    static final String G = "198.18.0.100:8080";
    static final String MAC1 = "02:00:c6:12:00:01";
    static final String MAC2 = "02:00:c6:12:00:02";

    @TempDir
    Path dir;

    private MigrationSamples samples(String... lines) throws Exception {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            String[] f = l.split(" ");
            out.add(Long.parseLong(f[0]) * 1_000_000 + " 1796560000000 " + G + " " + f[1] + " " + f[2] + " " + f[3]);
        }
        Path file = dir.resolve("s.txt");
        Files.write(file, out);
        return MigrationSamples.read(file);
    }

    @Test
    void anOutageRunsFromTheLastAnswerBeforeToTheFirstAfter() throws Exception {
        MigrationSamples s = samples("0 ok node1 " + MAC1, "100 fail - " + MAC1, "200 fail - " + MAC1, "300 ok node2 " + MAC2,
                "400 ok node2 " + MAC2, "500 fail - " + MAC2, "600 ok node2 " + MAC2);
        assertThat(s.outageMs(G, 0, 1_000_000_000L)).isEqualTo(300);
        assertThat(s.outageMs(G, 350_000_000L, 1_000_000_000L)).isEqualTo(200);
        assertThat(s.firstAnswer(G, "node2", 0)).hasValue(300_000_000L);
    }

    @Test
    void aRunStillFailingAtTheEndOfTheWindowEndsThere() throws Exception {
        MigrationSamples s = samples("0 ok node1 " + MAC1, "100 fail - " + MAC1, "200 fail - " + MAC1);
        assertThat(s.outageMs(G, 0, 250_000_000L)).isEqualTo(250);
        assertThat(s.latest(G, 0)).isEmpty();
    }

    @Test
    void aTornLastLineIsLeftOut() throws Exception {
        Path file = dir.resolve("torn.txt");
        Files.writeString(file, "100000000 1796560000000 " + G + " ok node1 " + MAC1 + "\n200000000 1796560000100 " + G
                + " ok node1 02:00:c6:1");
        assertThat(MigrationSamples.read(file).size()).isEqualTo(1);
    }

    @Test
    void anAnswerThroughTheOtherNodesMacIsMixed() throws Exception {
        MigrationSamples s = samples("0 ok node1 " + MAC1, "100 ok node2 " + MAC1, "200 ok node2 " + MAC2);
        assertThat(s.mixed()).extracting(MigrationSamples.Sample::nanos).containsExactly(100_000_000L);
    }

    @Test
    void answersFromBothNodesWithinOneHandOverInterleave() throws Exception {
        MigrationSamples s = samples("0 ok node1 " + MAC1, "100 ok node2 " + MAC2, "200 ok node2 " + MAC2,
                "300 ok node1 " + MAC1);
        assertThat(s.interleavings(G, 1_000_000_000L)).hasSize(1);
        assertThat(s.interleavings(G, 300_000_000L)).isEmpty(); // 300 ms apart: not within a 300 ms hand-over
    }

    @Test
    void aMoveThereAndBackSecondsApartIsNoInterleaving() throws Exception {
        MigrationSamples s = samples("0 ok node1 " + MAC1, "1000 fail - " + MAC1, "2000 ok node2 " + MAC2,
                "9000 ok node2 " + MAC2, "10000 ok node1 " + MAC1);
        assertThat(s.interleavings(G, 1_500_000_000L)).isEmpty();
        assertThat(s.mixed()).isEmpty();
    }
}
