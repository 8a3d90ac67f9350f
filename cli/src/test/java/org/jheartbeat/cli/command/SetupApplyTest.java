package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What hb setup shows of a failed hb config check on a stage. */
class SetupApplyTest {
    @Test
    void theCheckOfAStageNamesTheConfigurationDirectoryNotTheStage() {
        // lab: "no regular executable file at /etc/ha.d/.hb-setup/resource.d/labwebb", a directory that is gone
        String out = "/etc/ha.d/.hb-setup/haresources:2: Cannot locate resource script for labwebb: no regular"
                + " executable file at /etc/ha.d/.hb-setup/resource.d/labwebb or /etc/init.d/labwebb\n"
                + "  1 error(s) in /etc/ha.d/.hb-setup; fix them before starting the daemon\n";
        assertThat(SetupApply.unstaged(out, "/etc/ha.d/.hb-setup", "/etc/ha.d")).isEqualTo("/etc/ha.d/haresources:2:"
                + " Cannot locate resource script for labwebb: no regular executable file at"
                + " /etc/ha.d/resource.d/labwebb or /etc/init.d/labwebb\n"
                + "  1 error(s) in /etc/ha.d; fix them before starting the daemon\n");
    }
}
