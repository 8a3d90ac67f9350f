package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.jheartbeat.core.config.ConfigDigest;
import org.jheartbeat.core.config.ConfigDigest.Part;
import org.jheartbeat.core.control.ConfigDigestReport.Verdict;
import org.junit.jupiter.api.Test;

class ConfigDigestReportTest {
    static final String A = "a".repeat(64);
    static final String B = "b".repeat(64);
    static final String C = "c".repeat(64);

    @Test
    void roundTripsWithAndWithoutThePeersDigest() {
        ConfigDigestReport known = new ConfigDigestReport("node2", new ConfigDigest(A, B, C),
                Optional.of(new ConfigDigest(B, B, C)));
        assertThat(known.toText()).isEqualTo(
                "peer node2\nharesources " + A + " " + B + "\nauthkeys " + B + " " + B + "\nha.cf " + C + " " + C + "\n");
        assertThat(ConfigDigestReport.parse(known.toText())).isEqualTo(known);
        ConfigDigestReport unknown = new ConfigDigestReport("node2", new ConfigDigest(A, B, C), Optional.empty());
        assertThat(unknown.toText()).contains("ha.cf " + C + " -\n");
        assertThat(ConfigDigestReport.parse(unknown.toText())).isEqualTo(unknown);
    }

    @Test
    void comparesEachFile() {
        ConfigDigestReport r = new ConfigDigestReport("node2", new ConfigDigest(A, B, C),
                Optional.of(new ConfigDigest(B, B, C)));
        assertThat(r.compare()).containsExactly(java.util.Map.entry(Part.HARESOURCES, Verdict.DIFFERS),
                java.util.Map.entry(Part.AUTHKEYS, Verdict.SAME), java.util.Map.entry(Part.HA_CF, Verdict.SAME));
        assertThat(r.withLocal(new ConfigDigest(B, B, C)).compare()).containsOnlyKeys(Part.values())
                .allSatisfy((p, v) -> assertThat(v).isEqualTo(Verdict.SAME));
        assertThat(new ConfigDigestReport("node2", new ConfigDigest(A, B, C), Optional.empty()).compare().values())
                .containsOnly(Verdict.UNKNOWN);
    }

    @Test
    void rejectsGarbage() {
        assertThatThrownBy(() -> ConfigDigestReport.parse("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ConfigDigestReport.parse("peer node2\nharesources x -\nauthkeys x -\nha.cf x -\n"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
