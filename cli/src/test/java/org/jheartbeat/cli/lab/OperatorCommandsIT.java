package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The operator commands in the lab: standby, takeover and failback move exactly the groups they name (with
 * auto_failback off), {@code hb status --json} reflects each step, and the Heartbeat-compatible
 * wrappers ({@code hb_standby}, {@code hb_takeover}, {@code cl_status}) behave as Heartbeat's,
 * exit codes included.
 */
@Tag("root")
class OperatorCommandsIT {

    @Test
    void eachCommandMovesExactlyTheGroupsItNames() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_GROUPS", "active-active", "LAB_AUTO_FAILBACK", "off"))) {
            lab.lab("start", "node1");
            lab.lab("start", "node2");
            HeartbeatInteropIT.awaitServing(lab, "node1", "node2");
            awaitSettled(lab, "node1", "node2");
            assertThat(json(lab, "node1")).contains("\"rsc_status\":\"local\"");

            assertThat(wrapper(lab, "node1", "hb_standby", "local").code()).isZero();
            expect(lab, "node2", "node2");
            // the journal names who asked: the hb process's user, uid and pid, as the control socket saw them
            org.jheartbeat.core.journal.ClusterEvent asked = LabJournal.events(lab, "node1").stream()
                    .filter(e -> e.kind() == org.jheartbeat.core.journal.EventKind.STANDBY).findFirst().orElseThrow();
            assertThat(asked.by()).as("%s", asked).startsWith("user root (group root), uid 0, pid ");
            assertThat(asked.node()).isEqualTo("node1");
            assertThat(json(lab, "node1")).contains("\"rsc_status\":\"none\"")
                    .contains("\"key\":\"198.18.0.100/24/eth0\",\"preferred_node\":\"node1\",\"state_here\":\"stopped\","
                            + "\"running_on\":\"node2\"");

            assertThat(wrapper(lab, "node2", "hb", "failback").code()).as("node2 gives node1 its group back").isZero();
            expect(lab, "node1", "node2");

            assertThat(wrapper(lab, "node1", "hb_takeover", "foreign").code()).isZero();
            expect(lab, "node1", "node1");
            assertThat(json(lab, "node1")).contains("\"rsc_status\":\"all\"");
            assertThat(json(lab, "node2")).contains("\"rsc_status\":\"none\"");

            assertThat(wrapper(lab, "node1", "hb", "failback").code()).isZero();
            expect(lab, "node1", "node2");

            assertThat(wrapper(lab, "node2", "hb_takeover", "all").code()).isZero();
            expect(lab, "node2", "node2");
            assertThat(json(lab, "node2")).contains("\"rsc_status\":\"all\"");

            // wrappers: arguments, output forms and exit codes as Heartbeat's
            assertThat(wrapper(lab, "node1", "hb_standby", "a", "b").code()).isEqualTo(1);
            Lab.Result st = wrapper(lab, "node1", "cl_status", "nodestatus", "node2");
            assertThat(st.code()).isZero();
            assertThat(st.output().trim()).isEqualTo("active");
            assertThat(wrapper(lab, "node1", "cl_status", "-m", "rscstatus").output().trim())
                    .isEqualTo("This node is holding none resources.");
            assertThat(wrapper(lab, "node1", "cl_status", "hblinkstatus", "node2", "eth1").output().trim()).isEqualTo("up");
            assertThat(wrapper(lab, "node1", "cl_status", "frobnicate").code()).isEqualTo(11);
            lab.lab("stop", "node1");
            Lab.Result stopped = wrapper(lab, "node1", "cl_status", "hbstatus");
            assertThat(stopped.code()).isEqualTo(1);
            assertThat(stopped.output().trim()).isEqualTo("Heartbeat is stopped on this machine.");
        }
    }

    private static void expect(Lab lab, String vip1, String vip2) throws Exception {
        HeartbeatInteropIT.awaitServing(lab, vip1, vip2);
        HeartbeatInteropIT.assertRunningOnce(lab);
        awaitSettled(lab, "node1", "node2");
    }

    /**
     * Waits (at most {@link Figures#HANG}) until each named daemon reports the cluster settled in {@code hb status
     * --json}: {@code takeover_state} stable and {@code rsc_status} not {@code transition}, i.e. no start, stop or
     * hand-over under way here and the peer reported stable ({@code NodeEngine.rscStatus}). That is when a standby,
     * a takeover or a reload of the groups is accepted; an address held or a page served is not: a service answers
     * while its start script still waits for it, and the peer's report crosses the wire after the move.
     */
    static void awaitSettled(Lab lab, String... nodes) {
        await().atMost(Figures.HANG).pollInterval(java.time.Duration.ofMillis(200)).untilAsserted(() -> {
            for (String node : nodes) {
                assertSettled(lab, node);
            }
        });
    }

    /** Asserts once what {@link #awaitSettled} waits for, on one node (for a wait that also checks something else). */
    static void assertSettled(Lab lab, String node) throws Exception {
        assertThat(json(lab, node)).as("%s's hb status --json", node).contains("\"takeover_state\":\"stable\"")
                .doesNotContain("\"rsc_status\":\"transition\"");
    }

    static String json(Lab lab, String node) throws Exception {
        return wrapper(lab, node, "hb", "status", "--json").output();
    }

    /** Runs {@code hb ARGS...} (packaging/src/bin/hb) inside NODE, the arguments exactly as given. */
    static Lab.Result hbExactly(Lab lab, String node, String... args) throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        List<String> argv = new ArrayList<>(List.of("exec", node, "env",
                "HB_JAR=" + System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()),
                root.resolve("packaging/src/bin/hb").toString()));
        argv.addAll(List.of(args));
        return lab.lab(argv.toArray(String[]::new));
    }

    /** Runs a packaging/src/bin wrapper inside NODE against that node's daemon. */
    static Lab.Result wrapper(Lab lab, String node, String script, String... args) throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        List<String> argv = new ArrayList<>(List.of("exec", node, "env",
                "HB_STATE_DIR=" + lab.runDir().resolve(node).resolve("state"),
                "HB_JAR=" + System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()),
                root.resolve("packaging/src/bin").resolve(script).toString()));
        if (script.equals("hb") && args.length > 0 && !args[0].startsWith("-")) {
            argv.add(args[0]);
            argv.add("--state-dir");
            argv.add(lab.runDir().resolve(node).resolve("state").toString());
            argv.addAll(List.of(args).subList(1, args.length));
        } else {
            argv.addAll(List.of(args));
        }
        return lab.lab(argv.toArray(String[]::new));
    }
}
