package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SuggestionsTest {
    @ParameterizedTest
    @CsvSource({
            "'', '', 0",
            "'', abc, 3",
            "abc, '', 3",
            "keepalive, keepalive, 0",
            "keepalvie, keepalive, 2",
            "kitten, sitting, 3",
            "grup, group, 1",
            "shedule, schedule, 1",
            "Deadtime, deadtime, 1"})
    void distanceIsLevenshtein(String a, String b, int expected) {
        assertThat(Suggestions.distance(a, b)).isEqualTo(expected);
        assertThat(Suggestions.distance(b, a)).isEqualTo(expected);
    }

    @Test
    void closestOffersTheNearestWithinTwoEdits() {
        List<String> known = List.of("keepalive", "deadtime", "warntime", "initdead");
        assertThat(Suggestions.closest("keepalvie", known)).contains("keepalive");
        assertThat(Suggestions.closest("deadtme", known)).contains("deadtime");
        assertThat(Suggestions.closest("bcast", known)).isEmpty();
    }

    @Test
    void aTieGoesToTheFirstCandidate() {
        assertThat(Suggestions.closest("ab", List.of("ax", "xb"))).contains("ax");
        assertThat(Suggestions.closest("ab", List.of("xb", "ax"))).contains("xb");
    }

    @Test
    void threeEditsAreTooFar() {
        assertThat(Suggestions.closest("abc", List.of("xyz"))).isEmpty();
        assertThat(Suggestions.closest("abc", List.of("xyc"))).contains("xyc");
    }
}
