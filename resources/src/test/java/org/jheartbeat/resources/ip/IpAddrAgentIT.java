package org.jheartbeat.resources.ip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.group.GroupResult;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.jheartbeat.resources.lookup.ScriptLocator;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * IpAddrAgent against the real kernel, inside a throw-away network namespace {@code hbt-ip-<hex>}
 * holding a veth pair {@code hbt0}/{@code hbt1} with {@code 198.18.0.1/24} on {@code hbt0}. Only
 * addresses in 198.18.0.0/15 (RFC 2544 benchmarking) are used. The namespace is deleted after each
 * test, also when the test fails. Skipped unless running as root.
 */
@Tag("root")
class IpAddrAgentIT {
    private static final Duration T = Duration.ofSeconds(10);
    private final OsProcessRunner os = new OsProcessRunner();
    private String ns;
    private NamespacedProcessRunner runner;
    private ExecutorService background;

    @BeforeEach
    void createNamespace() throws IOException {
        assumeTrue(os.run(ProcessSpec.of(T, "id", "-u")).stdout().strip().equals("0"), "needs root");
        ns = "hbt-ip-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        sh("ip", "netns", "add", ns);
        try {
            sh("ip", "-n", ns, "link", "set", "lo", "up");
            sh("ip", "-n", ns, "link", "add", "hbt0", "type", "veth", "peer", "name", "hbt1");
            sh("ip", "-n", ns, "link", "set", "hbt0", "up");
            sh("ip", "-n", ns, "link", "set", "hbt1", "up");
            sh("ip", "-n", ns, "addr", "add", "198.18.0.1/24", "dev", "hbt0");
        } catch (IOException | AssertionError e) {
            deleteNamespace();
            throw e;
        }
        runner = new NamespacedProcessRunner(ns, os);
        background = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void deleteNamespace() throws IOException {
        if (ns == null) {
            return;
        }
        try {
            if (background != null) {
                background.shutdown();
                background.awaitTermination(20, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            os.run(ProcessSpec.of(T, "ip", "netns", "del", ns));
            assertThat(os.run(ProcessSpec.of(T, "ip", "netns", "list")).stdout()).doesNotContain(ns);
            ns = null;
        }
    }

    private void sh(String... argv) throws IOException {
        ProcessResult result = os.run(ProcessSpec.of(T, argv));
        assertThat(result.succeeded()).as("%s: %s", String.join(" ", argv), result.stderr()).isTrue();
    }

    private String addresses() throws IOException {
        return os.run(ProcessSpec.of(T, "ip", "-n", ns, "-o", "-4", "addr", "show", "dev", "hbt0")).stdout();
    }

    private IpAddrAgent agent(String spec) {
        return new IpAddrAgent(IpAddrSpec.parse(spec), runner, IpCommands.DEFAULT,
                new GratuitousArp("arping", 2, false), background);
    }

    @Test
    void addStatusDelAndIdempotence() throws Exception {
        IpAddrAgent agent = agent("198.18.0.100/24/hbt0");
        assertThat(agent.status().outcome()).isEqualTo(AgentOutcome.STOPPED);

        assertThat(agent.start().isOk()).isTrue();
        assertThat(agent.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(addresses()).contains("inet 198.18.0.100/24 brd 198.18.0.255");

        assertThat(agent.start().message()).isEqualTo("already running");
        assertThat(addresses().split("198.18.0.100/", -1)).as("added once").hasSize(2);

        assertThat(agent.stop().isOk()).isTrue();
        int arpsAtStop = runner.runsOf("arping").size();
        assertThat(agent.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(addresses()).doesNotContain("198.18.0.100").contains("198.18.0.1/24");
        assertThat(agent.stop().message()).isEqualTo("not present");

        background.shutdown();
        assertThat(background.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
        assertThat(runner.runsOf("arping")).as("each start announced; runs are single ARPs").isNotEmpty()
                .allSatisfy(run -> assertThat(run.argv()).containsExactly("arping", "-U", "-c", "1", "-I", "hbt0",
                        "198.18.0.100"));
        assertThat(runner.runsOf("arping").size()).as("at most the runs already under way continue after the stop")
                .isLessThanOrEqualTo(arpsAtStop + 2);
    }

    @Test
    void prefixAndInterfaceComeFromTheRoute() throws IOException {
        IpAddrAgent agent = agent("198.18.0.101");
        assertThat(agent.start().isOk()).isTrue();
        assertThat(addresses()).contains("inet 198.18.0.101/24");
        assertThat(agent.stop().isOk()).isTrue();
        assertThat(addresses()).doesNotContain("198.18.0.101");
        assertThat(agent("198.19.0.5").start().message()).contains("no non-default route");
    }

    @Test
    void groupOfTwoAddressesStartsAndStops() throws IOException {
        var agents = new StandardResourceAgents(ScriptLocator.of(Path.of("/nonexistent/ha.d"),
                Path.of("/nonexistent/init.d")), runner, IpCommands.DEFAULT,
                new GratuitousArp("arping", 1, false), background);
        var group = new ResourceGroupDecl(NodeName.of("rnode1"), List.of(
                new ResourceSpec("IPaddr", List.of("198.18.0.110/24/hbt0"), "198.18.0.110/24/hbt0"),
                new ResourceSpec("IPaddr2", List.of("198.18.1.111/24/hbt0"), "IPaddr2::198.18.1.111/24/hbt0")), 1);
        var groups = new ResourceGroupRunner(agents);

        GroupResult started = groups.start(group);
        assertThat(started.success()).as(started.message()).isTrue();
        assertThat(addresses()).contains("198.18.0.110/24", "198.18.1.111/24");
        assertThat(groups.status(group).summary()).hasToString("RUNNING");

        GroupResult stopped = groups.stop(group);
        assertThat(stopped.success()).as(stopped.message()).isTrue();
        assertThat(addresses()).doesNotContain("198.18.0.110").doesNotContain("198.18.1.111");
    }
}
