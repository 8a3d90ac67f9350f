package org.jheartbeat.resources.lsb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.jheartbeat.resources.AgentOutcome;
import org.junit.jupiter.api.Test;

/** The LSB exit-code tables (LSB Core "Init Script Actions"; Pacemaker's lsb class for status). */
class LsbCodesTest {
    @Test
    void statusTable() {
        Map<Integer, AgentOutcome> expected = Map.of(0, AgentOutcome.RUNNING, 1, AgentOutcome.STOPPED,
                2, AgentOutcome.STOPPED, 3, AgentOutcome.STOPPED, 4, AgentOutcome.FAILED, 5, AgentOutcome.FAILED,
                150, AgentOutcome.FAILED, 255, AgentOutcome.FAILED);
        expected.forEach((code, outcome) -> assertThat(LsbStatus.of(code).outcome()).as("status rc=%d", code)
                .isEqualTo(outcome));
        assertThat(LsbStatus.of(3)).isEqualTo(LsbStatus.NOT_RUNNING);
        assertThat(LsbStatus.of(1).meaning()).contains("pid file");
        assertThat(LsbStatus.of(-1)).isEqualTo(LsbStatus.OTHER);
    }

    @Test
    void actionTable() {
        assertThat(LsbExitCode.values()).extracting(LsbExitCode::code).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(LsbExitCode.of(5)).contains(LsbExitCode.NOT_INSTALLED);
        assertThat(LsbExitCode.of(8)).isEmpty();
        assertThat(LsbExitCode.describe(7)).isEqualTo("rc=7 (program is not running)");
        assertThat(LsbExitCode.describe(42)).isEqualTo("rc=42 (reserved code: failure)");
    }
}
