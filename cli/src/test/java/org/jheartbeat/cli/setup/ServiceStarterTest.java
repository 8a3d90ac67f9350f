package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The shell starter's exit codes, with a real sh: 0 started, 100 not installed, else failed with its last line. */
class ServiceStarterTest {
    private static ServiceStarter.Result here(String script) throws Exception {
        return ServiceStarter.shell(script, Duration.ofSeconds(20)).startHere();
    }

    @Test
    void exitCodesSayWhatHappened() throws Exception {
        assertThat(here("true")).isEqualTo(new ServiceStarter.Result(ServiceStarter.Outcome.STARTED, ""));
        assertThat(here("echo 'jheartbeat.service is not installed' >&2; exit 100")).isEqualTo(new ServiceStarter.Result(
                ServiceStarter.Outcome.NOT_INSTALLED, "jheartbeat.service is not installed"));
        assertThat(here("echo starting >&2; echo 'unit failed' >&2; exit 3")).isEqualTo(new ServiceStarter.Result(
                ServiceStarter.Outcome.FAILED, "unit failed (exit 3)"));
    }

    @Test
    void theDefaultScriptSaysNotInstalledWhereThereIsNoUnit() throws Exception {
        for (String unit : new String[] {"/lib/systemd/system/jheartbeat.service", "/etc/systemd/system/jheartbeat.service"}) {
            org.junit.jupiter.api.Assumptions.assumeFalse(java.nio.file.Files.exists(java.nio.file.Path.of(unit)),
                    "the package's unit is installed on this machine");
        }
        assertThat(here(ServiceStarter.SYSTEMD).outcome()).isEqualTo(ServiceStarter.Outcome.NOT_INSTALLED);
    }
}
