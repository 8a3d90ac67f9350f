package org.jheartbeat.sync.replication;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RsyncExitTest {
    @ParameterizedTest
    @CsvSource({"0,OK", "24,PARTIAL", "10,TRANSIENT", "12,TRANSIENT", "30,TRANSIENT", "35,TRANSIENT",
            "255,TRANSIENT", "1,FATAL", "2,FATAL", "3,FATAL", "4,FATAL", "5,FATAL", "11,FATAL", "13,FATAL",
            "14,FATAL", "20,FATAL", "21,FATAL", "22,FATAL", "23,FATAL", "25,FATAL", "127,FATAL", "99,FATAL"})
    void classifiesExitCodes(int code, RsyncExit expected) {
        assertThat(RsyncExit.classify(code, false)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"-1", "0", "23"})
    void ourTimeoutKillIsTransientWhateverTheCode(int code) {
        assertThat(RsyncExit.classify(code, true)).isEqualTo(RsyncExit.TRANSIENT);
    }

    @ParameterizedTest
    @CsvSource({"23,partial transfer due to error", "255,'ssh failed (connection refused, unreachable or dropped)'",
            "77,exit 77"})
    void describes(int code, String text) {
        assertThat(RsyncExit.describe(code)).isEqualTo(text);
    }
}
