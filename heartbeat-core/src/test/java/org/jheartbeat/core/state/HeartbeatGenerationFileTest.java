package org.jheartbeat.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node moving between Heartbeat 3.0.6 and jheartbeat never starts below its previous daemon's generation
 * (a peer drops such frames as replays for good), on real files in Heartbeat's format.
 */
class HeartbeatGenerationFileTest {
    @TempDir
    Path dir;

    private Path heartbeatFile(long gen) throws IOException {
        Path f = Files.createDirectories(dir.resolve("var/lib/heartbeat")).resolve("hb_generation");
        Files.writeString(f, String.format("%15d\n", gen), StandardCharsets.US_ASCII);
        return f;
    }

    private StateDirectory state() throws IOException {
        StateDirectory s = new StateDirectory(dir.resolve("var/lib/jheartbeat"));
        s.create();
        return s;
    }

    /** Heartbeat's next start reads the file and adds one (IncrGeneration). */
    private static long heartbeatsNextStart(Path f) throws IOException {
        return Long.parseLong(Files.readString(f, StandardCharsets.US_ASCII).trim()) + 1;
    }

    @Test
    void theFirstJheartbeatStartContinuesAboveHeartbeatsCountAndLeavesItsOwnThere() throws Exception {
        Path hb = heartbeatFile(1_700_000_500L); // Heartbeat restarted often: its count is ahead of the clock
        long gen = HeartbeatGenerationFile.bump(state(), hb, 1_700_000_000L);
        assertThat(gen).isEqualTo(1_700_000_501L);
        assertThat(Files.readString(hb, StandardCharsets.US_ASCII)).isEqualTo("     1700000501\n");
        assertThat(Files.readString(dir.resolve("var/lib/jheartbeat/hb_generation"))).isEqualTo("     1700000501\n");
    }

    @Test
    void goingBackHeartbeatStartsAboveEveryGenerationJheartbeatSent() throws Exception {
        Path hb = heartbeatFile(1_700_000_001L); // Heartbeat's first start, long ago
        StateDirectory s = state();
        long first = HeartbeatGenerationFile.bump(s, hb, 1_800_000_000L); // the migration, later
        long second = HeartbeatGenerationFile.bump(s, hb, 1_800_000_100L);
        assertThat(first).isEqualTo(1_800_000_001L);
        assertThat(second).isEqualTo(first + 1);
        assertThat(heartbeatsNextStart(hb)).isGreaterThan(second);
    }

    @Test
    void andBackToJheartbeatAfterHeartbeatRanAgain() throws Exception {
        StateDirectory s = state();
        Path hb = heartbeatFile(10);
        long ours = HeartbeatGenerationFile.bump(s, hb, 1_000L); // 1001, also in Heartbeat's file
        Files.writeString(hb, String.format("%15d\n", heartbeatsNextStart(hb) + 5)); // Heartbeat ran 6 times
        assertThat(HeartbeatGenerationFile.bump(s, hb, 1_000L)).isEqualTo(ours + 7);
    }

    @Test
    void aMachineWithoutHeartbeatsFileIsNotTouched() throws Exception {
        Path hb = dir.resolve("var/lib/heartbeat/hb_generation");
        assertThat(HeartbeatGenerationFile.bump(state(), hb, 500L)).isEqualTo(501L);
        assertThat(hb.getParent()).doesNotExist();
    }

    @Test
    void heartbeatsFileKeepsItsMode() throws Exception {
        Path hb = heartbeatFile(5);
        Files.setPosixFilePermissions(hb, PosixFilePermissions.fromString("rw-------"));
        HeartbeatGenerationFile.bump(state(), hb, 1L);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(hb))).isEqualTo("rw-------");
        assertThat(hb.resolveSibling("hb_generation.jheartbeat-tmp")).doesNotExist();
    }

    @Test
    void garbageInHeartbeatsFileStopsTheStartNamingTheFile() throws Exception {
        Path hb = Files.createDirectories(dir.resolve("hb")).resolve("hb_generation");
        Files.writeString(hb, "twelve\n");
        assertThatThrownBy(() -> HeartbeatGenerationFile.bump(state(), hb, 1L)).isInstanceOf(IOException.class)
                .hasMessageContaining(hb + ":1: Heartbeat's generation file does not hold a number: [twelve]");
        assertThat(Files.readString(hb)).isEqualTo("twelve\n");
    }
}
