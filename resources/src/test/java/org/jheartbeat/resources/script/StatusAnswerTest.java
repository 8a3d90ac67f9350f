package org.jheartbeat.resources.script;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which status answers a monitor can read: real scripts' words, and what scripts without a status print. */
class StatusAnswerTest {
    @Test
    void runningAndStoppedInWordsAreReadEverythingElseIsUnclear() {
        assertThat(StatusAnswer.of("running\n")).isEqualTo(StatusAnswer.RUNNING);
        assertThat(StatusAnswer.of("townhall-db: OK\n")).isEqualTo(StatusAnswer.RUNNING);
        assertThat(StatusAnswer.of("stopped\n")).isEqualTo(StatusAnswer.STOPPED);
        assertThat(StatusAnswer.of("mysqld is not running\n")).isEqualTo(StatusAnswer.STOPPED);
        assertThat(StatusAnswer.of("apache2 is dead\n")).isEqualTo(StatusAnswer.STOPPED);
        assertThat(StatusAnswer.of("Active: inactive (dead)\n")).isEqualTo(StatusAnswer.STOPPED);
        assertThat(StatusAnswer.of("")).isEqualTo(StatusAnswer.UNCLEAR);
        assertThat(StatusAnswer.of("Usage: /etc/init.d/foo {start|stop|restart}\n")).isEqualTo(StatusAnswer.UNCLEAR);
        assertThat(StatusAnswer.of("unstoppedable\n")).isEqualTo(StatusAnswer.UNCLEAR);
    }
}
