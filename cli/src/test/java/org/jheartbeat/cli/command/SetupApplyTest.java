package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.jheartbeat.cli.runtime.SshTransport;
import org.jheartbeat.cli.setup.ServiceStarter;
import org.jheartbeat.core.time.Sleeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    @Test
    void aStartScriptThatSaysNothingLeavesNoEmptyBrackets(@TempDir Path dir) throws Exception {
        // lab: --start-command "exit 100" printed "node1: no jheartbeat service installed (); start ..."
        StringWriter out = new StringWriter();
        PrintWriter pw = new PrintWriter(out, true);
        SetupApply apply = new SetupApply(pw, pw, new SshTransport(List.of("false"), "peer", 5), dir, dir.toString(),
                dir.toString(), "node1", "node2", "peer:" + dir, Sleeper.system());
        ServiceStarter.Result none = new ServiceStarter.Result(ServiceStarter.Outcome.NOT_INSTALLED, "");
        ServiceStarter starter = new ServiceStarter() {
            @Override
            public Result startHere() {
                return none;
            }

            @Override
            public Result startOnPeer(SshTransport ssh) {
                return new Result(Outcome.NOT_INSTALLED, "jheartbeat.service is not installed");
            }
        };
        assertThat(apply.startAndWait(starter, dir, "hb", 1)).isZero();
        assertThat(out.toString()).contains("node1: no jheartbeat service installed; start the daemon there yourself")
                .contains("node2: no jheartbeat service installed (jheartbeat.service is not installed); start");
    }
}
