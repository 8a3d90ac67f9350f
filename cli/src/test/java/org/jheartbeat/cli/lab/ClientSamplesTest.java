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
    void oneGapBetweenServedSamplesIsOneOutageMeasuredBetweenThem() {
        List<ClientSamples.Sample> s = parse("1000 node1 02:00:c6:12:00:01 0.000201", "1150 node1 02:00:c6:12:00:01 0.0003",
                "1800 - 02:00:c6:12:00:01 0.000000", "2450 - - 0", "2600 node1 02:00:c6:12:00:01 0.0002",
                "2750 node1 02:00:c6:12:00:01 0.0002");
        assertThat(ClientSamples.outages(s)).containsExactly(new ClientSamples.Outage(1150, Optional.of(2600L), 2));
        assertThat(ClientSamples.outages(s).get(0).ms()).contains(1450L);
        assertThat(ClientSamples.twoNodes(s)).isEmpty();
        assertThat(ClientSamples.leadingMisses(s)).isZero();
    }

    @Test
    void aSlowAnswerOnAnAcceptedConnectionIsServedNotAnOutage() {
        List<ClientSamples.Sample> s = parse("1 node2 - 0.0001", "2 - - 0.000350", "3 node2 - 0.0001");
        assertThat(s.get(1).answered()).isFalse();
        assertThat(s.get(1).served()).isTrue();
        assertThat(ClientSamples.outages(s)).isEmpty();
    }

    @Test
    void twoGapsAreTwoOutagesAndAGapAtTheEndHasNoEnd() {
        List<ClientSamples.Sample> s = parse("1 - - 0", "2 node2 - 0.1", "3 - - 0", "4 node2 - 0.1", "5 - - 0", "6 - - 0");
        assertThat(ClientSamples.leadingMisses(s)).isEqualTo(1);
        assertThat(ClientSamples.outages(s)).containsExactly(new ClientSamples.Outage(2, Optional.of(4L), 1),
                new ClientSamples.Outage(4, Optional.empty(), 2));
        assertThat(ClientSamples.outages(s).get(1).ms()).isEmpty();
    }

    @Test
    void anAnswerFromOneNodeWithTheOtherNodesMacInArpIsTwoNodes() {
        List<ClientSamples.Sample> s = parse("1 node1 02:00:C6:12:00:01 0.1", "2 node1 02:00:c6:12:00:02 0.1",
                "3 - 02:00:c6:12:00:02 0");
        assertThat(ClientSamples.twoNodes(s)).containsExactly(new ClientSamples.Sample(2, "node1", "node2", true));
        assertThat(s.get(0).arpNode()).isEqualTo("node1");
    }

    @Test
    void aLineOfAnotherFormIsRefused() {
        assertThatThrownBy(() -> ClientSamples.parse("12 node1 -")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a sample line");
        assertThatThrownBy(() -> ClientSamples.parse("12 node1 - x")).isInstanceOf(IllegalArgumentException.class);
    }
}
