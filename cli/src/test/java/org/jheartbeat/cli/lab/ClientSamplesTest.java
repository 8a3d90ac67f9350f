package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How the migration drill reads its client samples: outages and two-node answers ({@link ClientSamples}). */
class ClientSamplesTest {
    private static List<ClientSamples.Sample> parse(String... lines) {
        return java.util.Arrays.stream(lines).map(ClientSamples::parse).toList();
    }

    @Test
    void oneGapBetweenAnsweredSamplesIsOneOutageMeasuredBetweenThem() {
        List<ClientSamples.Sample> s = parse("1000 node1 02:00:c6:12:00:01", "1150 node1 02:00:c6:12:00:01",
                "1800 - 02:00:c6:12:00:01", "2450 - -", "2600 node1 02:00:c6:12:00:01", "2750 node1 02:00:c6:12:00:01");
        assertThat(ClientSamples.outages(s)).containsExactly(new ClientSamples.Outage(1150, Optional.of(2600L), 2));
        assertThat(ClientSamples.outages(s).get(0).ms()).contains(1450L);
        assertThat(ClientSamples.twoNodes(s)).isEmpty();
        assertThat(ClientSamples.leadingMisses(s)).isZero();
    }

    @Test
    void twoGapsAreTwoOutagesAndAGapAtTheEndHasNoEnd() {
        List<ClientSamples.Sample> s = parse("1 - -", "2 node2 -", "3 - -", "4 node2 -", "5 - -", "6 - -");
        assertThat(ClientSamples.leadingMisses(s)).isEqualTo(1);
        assertThat(ClientSamples.outages(s)).containsExactly(new ClientSamples.Outage(2, Optional.of(4L), 1),
                new ClientSamples.Outage(4, Optional.empty(), 2));
        assertThat(ClientSamples.outages(s).get(1).ms()).isEmpty();
    }

    @Test
    void anAnswerFromOneNodeWithTheOtherNodesMacInArpIsTwoNodes() {
        List<ClientSamples.Sample> s = parse("1 node1 02:00:C6:12:00:01", "2 node1 02:00:c6:12:00:02", "3 - 02:00:c6:12:00:02");
        assertThat(ClientSamples.twoNodes(s)).containsExactly(new ClientSamples.Sample(2, "node1", "node2"));
        assertThat(s.get(0).arpNode()).isEqualTo("node1");
    }

    @Test
    void aLineOfAnotherFormIsRefused() {
        assertThatThrownBy(() -> ClientSamples.parse("12 node1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a sample line");
    }
}
