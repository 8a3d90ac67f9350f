package org.jheartbeat.sync;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RsyncStatsTest {
    @Test
    void parsesRsync3StatsWithThousandsSeparators() {
        String out = String.join("\n", "", "Number of files: 10,004 (reg: 10,000, dir: 4)",
                "Number of created files: 3 (reg: 3)", "Number of deleted files: 0",
                "Number of regular files transferred: 3", "Total file size: 41,943,040 bytes",
                "Total transferred file size: 1,200,000 bytes", "Literal data: 1,200,000 bytes", "");
        assertThat(RsyncStats.parse(out)).isEqualTo(new RsyncStats(10_004, 10_000, 3, 0, 3, 41_943_040, 1_200_000));
    }

    @Test
    void parsesOldFormatAndAbsentFigures() {
        assertThat(RsyncStats.parse("Number of files: 12\nNumber of files transferred: 2\n"
                + "Total transferred file size: 77 bytes\n")).isEqualTo(new RsyncStats(12, 12, 0, 0, 2, 0, 77));
        assertThat(RsyncStats.parse("")).isEqualTo(RsyncStats.ZERO);
    }
}
