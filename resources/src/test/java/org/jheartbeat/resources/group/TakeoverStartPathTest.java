package org.jheartbeat.resources.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.resources.ResourceAgents;
import org.jheartbeat.resources.ip.GratuitousArp;
import org.jheartbeat.resources.ip.IpAddrAgent;
import org.jheartbeat.resources.ip.IpAddrSpec;
import org.jheartbeat.resources.ip.IpCommands;
import org.jheartbeat.resources.script.ScriptAgent;
import org.junit.jupiter.api.Test;

/**
 * A takeover start asks each resource's status once, then starts it; no second status
 * (every extra run delays the takeover; it used to cost two
 * {@code ip addr show} and two script {@code status} runs before the starts).
 */
class TakeoverStartPathTest {
    private static final List<String> SHOW = List.of("ip", "-o", "-4", "addr", "show", "dev", "eth0");
    private static final List<String> ADD = List.of("ip", "-4", "addr", "add", "198.18.0.100/24", "brd", "+", "dev",
            "eth0");
    private static final Path LABWEB = Path.of("/etc/ha.d/resource.d/labweb");

    private final RecordingProcessRunner runner = new RecordingProcessRunner();
    private final List<Runnable> background = new ArrayList<>();
    private final ResourceAgents agents = spec -> spec.token().equals("labweb")
            ? new ScriptAgent(LABWEB, List.of(), runner)
            : new IpAddrAgent(IpAddrSpec.parse(spec.token()), runner, IpCommands.DEFAULT, GratuitousArp.DEFAULT,
                    background::add);

    private static ResourceGroupDecl group() {
        return new ResourceGroupDecl(NodeName.of("rnode1"), List.of(
                new ResourceSpec("198.18.0.100/24/eth0", List.of(), "198.18.0.100/24/eth0"),
                new ResourceSpec("labweb", List.of(), "labweb")), 1);
    }

    @Test
    void eachStoppedResourceIsAskedOnceThenStarted() {
        runner.on(SHOW, ProcessResult.exited(0, "3: eth0    inet 198.18.0.2/24 brd 198.18.0.255 scope global eth0\n"))
                .on(List.of(LABWEB.toString(), "status"), ProcessResult.exited(3, "stopped\n"));
        GroupResult r = new ResourceGroupRunner(agents).start(group());
        assertThat(r.success()).isTrue();
        assertThat(runner.argvs()).containsExactly(SHOW, ADD, List.of(LABWEB.toString(), "status"),
                List.of(LABWEB.toString(), "start"));
    }

    @Test
    void aRunningResourceIsAskedOnceAndNotStarted() {
        runner.on(SHOW, ProcessResult.exited(0, "3: eth0    inet 198.18.0.100/24 brd 198.18.0.255 scope global eth0\n"))
                .on(List.of(LABWEB.toString(), "status"), ProcessResult.exited(0, "running\n"));
        GroupResult r = new ResourceGroupRunner(agents).start(group());
        assertThat(r.success()).isTrue();
        assertThat(r.outcomes()).extracting(ResourceOutcome::step)
                .containsExactly(ResourceStep.ALREADY_RUNNING, ResourceStep.ALREADY_RUNNING);
        assertThat(runner.argvs()).containsExactly(SHOW, List.of(LABWEB.toString(), "status"));
    }
}
