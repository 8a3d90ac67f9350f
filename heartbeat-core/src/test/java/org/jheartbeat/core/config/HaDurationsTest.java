package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HaDurationsTest {

    @ParameterizedTest(name = "[{0}] = {1} ms")
    @CsvSource({
            "2, 2000",
            "0.5, 500",
            "500ms, 500",
            "500 ms, 500",
            "500MS, 500",
            "250msec, 250",
            "1500us, 2",
            "1499usec, 1",
            "0, 0",
            "30, 30000",
            "1.0005, 1001",
            ".25, 250",
            "' 10 ', 10000",
    })
    void parsesHeartbeatTimeSyntax(String text, long expectedMillis) {
        assertThat(HaDurations.parseMillis(text)).isEqualTo(expectedMillis);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2s", "2 s", "2sec"})
    void rejectsTheSecondsSuffixAndSaysWhy(String text) {
        assertThatThrownBy(() -> HaDurations.parseMillis(text))
                .isInstanceOf(InvalidDurationException.class)
                .hasMessageContaining("'s' suffix")
                .hasMessageContaining("bare number means seconds");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "", " ", ".", "-1", "1.2.3", "5msfoo", "2m", "1e3", "ms"})
    void rejectsGarbage(String text) {
        assertThatThrownBy(() -> HaDurations.parseMillis(text))
                .isInstanceOf(InvalidDurationException.class)
                .hasMessageContaining("invalid time");
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999999"})
    void rejectsValuesTooLargeForALong(String text) {
        assertThatThrownBy(() -> HaDurations.parseMillis(text))
                .isInstanceOf(InvalidDurationException.class)
                .hasMessageContaining("too large");
    }

    @org.junit.jupiter.api.Test
    void exceptionKeepsTheInput() {
        assertThatThrownBy(() -> HaDurations.parseMillis("abc"))
                .isInstanceOfSatisfying(InvalidDurationException.class, e -> assertThat(e.input()).isEqualTo("abc"));
        assertThatThrownBy(() -> HaDurations.parseMillis(null)).isInstanceOf(InvalidDurationException.class);
    }

    @org.junit.jupiter.api.Test
    void formatsLikeHeartbeatDefaults() {
        assertThat(HaDurations.formatMillis(30_000)).isEqualTo("30000ms");
    }
}
