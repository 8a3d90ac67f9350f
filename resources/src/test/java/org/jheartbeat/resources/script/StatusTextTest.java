package org.jheartbeat.resources.script;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatusTextTest {
    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', value = {
        "INFO:  Running OK|true",
        "INFO:  Resource is stopped|false",
        "running|true",
        "Running|true",
        "OK|true",
        "apache is running (pid 42)|true",
        "Not running|false",
        "not running|false",
        "NOT running|false",
        "apache is not running|false",
        "not currently running|false",
        "NOT RUNNING|false",
        "ok|false",
        "stopped|false",
        "garbage ### 123|false",
        "''|false",
    })
    void decidesLikeHeartbeat(String stdout, boolean running) {
        assertThat(StatusText.saysRunning(stdout)).isEqualTo(running);
    }

    @Test
    void spansLines() {
        assertThat(StatusText.saysRunning("daemon is not\n")).isFalse();
        assertThat(StatusText.saysRunning("checking: not \nrunning")).isFalse();
        assertThat(StatusText.saysRunning("line one\nstatus: OK\n")).isTrue();
    }
}
