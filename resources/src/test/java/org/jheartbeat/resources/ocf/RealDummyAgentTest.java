package org.jheartbeat.resources.ocf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.ip.GratuitousArp;
import org.jheartbeat.resources.ip.IpCommands;
import org.jheartbeat.resources.lookup.ScriptLocator;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code ocf:heartbeat:Dummy} of Debian's resource-agents (it keeps a state file named by
 * its {@code state} parameter) through {@link StandardResourceAgents} and the real process runner:
 * the OCF environment is what a real agent needs, and its codes map as documented (monitor 7 when
 * stopped, start and stop idempotent, validate-all 0). No root needed.
 */
class RealDummyAgentTest {
    @TempDir
    Path dir;

    @Test
    void startMonitorStopOfTheRealDummyAgent() {
        assumeTrue(Files.isExecutable(OcfDirectory.DEFAULT_ROOT.resolve("resource.d/heartbeat/Dummy")),
                "resource-agents is installed (scripts/setup.sh)");
        Path state = dir.resolve("dummy.state");
        StandardResourceAgents agents = new StandardResourceAgents(new ScriptLocator(dir, dir), new OsProcessRunner(),
                IpCommands.DEFAULT, GratuitousArp.DEFAULT, Runnable::run);
        ResourceAgent a = agents.forSpec(HaresourcesParser.resource("ocf:heartbeat:Dummy::state=" + state
                + "::op_timeout=20s").orElseThrow());

        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(a.status().exitCode()).isEqualTo(OcfExitCode.NOT_RUNNING.code());
        assertThat(a.stop().isOk()).as("stop of a stopped resource succeeds").isTrue();
        assertThat(a.start().isOk()).isTrue();
        assertThat(state).exists();
        assertThat(a.start().isOk()).as("start of a running resource succeeds").isTrue();
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(((OcfAgent) a).run("validate-all").isOk()).isTrue();
        assertThat(a.stop().isOk()).isTrue();
        assertThat(state).doesNotExist();
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
    }
}
