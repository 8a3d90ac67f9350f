package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.HbRun.hb;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.takeover.Maintenance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb maintenance} against a stand-in daemon: the request it sends for each scope, done and
 * refused told apart by the exit code, argument errors as usage errors, no daemon as 3.
 */
class MaintenanceCommandTest {
    @TempDir
    Path dir;

    final List<ControlRequest> asked = new ArrayList<>();

    HbRun against(Function<ControlRequest, ControlResponse> daemon, String... args) throws Exception {
        return StandInDaemon.against(dir, asked, daemon, args);
    }

    @Test
    void eachScopeIsOneRequest() throws Exception {
        HbRun on = against(r -> ControlResponse.ok("maintenance cluster-wide on\nMaintenance: cluster-wide\n"),
                "maintenance", "on");
        assertThat(on.code()).as(on.err()).isZero();
        assertThat(on.out()).isEqualTo("maintenance cluster-wide on\nMaintenance: cluster-wide\n");
        against(r -> ControlResponse.ok("x\n"), "maintenance", "off", "--node", "node2");
        against(r -> ControlResponse.ok("off\n"), "maintenance", "status", "--group", "198.18.0.100/24/eth0");
        assertThat(asked).containsExactly(
                new ControlRequest.Maintenance(ControlRequest.MaintenanceAction.ON, Maintenance.Scope.CLUSTER),
                new ControlRequest.Maintenance(ControlRequest.MaintenanceAction.OFF,
                        new Maintenance.Scope(Maintenance.Kind.NODE, "node2")),
                new ControlRequest.Maintenance(ControlRequest.MaintenanceAction.STATUS,
                        new Maintenance.Scope(Maintenance.Kind.GROUP, "198.18.0.100/24/eth0")));
        assertThat(asked.get(2).toWire()).isEqualTo("maintenance status group 198.18.0.100/24/eth0");
    }

    @Test
    void refusalsAreExit75WithTheDaemonsReason() throws Exception {
        HbRun r = against(q -> ControlResponse.refused("group 198.18.0.100/24/eth0 runs on both nodes"),
                "maintenance", "off");
        assertThat(r.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).isEqualTo("hb: maintenance off refused: group 198.18.0.100/24/eth0 runs on both nodes\n");
    }

    @Test
    void anUnknownNodeOrGroupIsAUsageErrorWithTheDaemonsWords() throws Exception {
        // as this daemon answers, and as an older one refused
        for (Function<String, ControlResponse> answer : List.<Function<String, ControlResponse>>of(
                ControlResponse::error, ControlResponse::refused)) {
            HbRun node = against(q -> answer.apply("no node nod2 in ha.cf (did you mean node2?); nodes: node1, node2"),
                    "maintenance", "on", "--node", "nod2");
            assertThat(node.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(node.err()).isEqualTo("hb: maintenance on: no node nod2 in ha.cf (did you mean node2?); nodes:"
                    + " node1, node2\n");
            HbRun group = against(q -> answer.apply("no resource group NOSUCH in haresources; name it by its key"),
                    "maintenance", "on", "--group", "NOSUCH");
            assertThat(group.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(group.err()).isEqualTo("hb: maintenance on: no resource group NOSUCH in haresources; name it by"
                    + " its key\n");
        }
    }

    @Test
    void badArgumentsAreUsageErrorsAndNoDaemonIsThree() throws Exception {
        HbRun bad = against(q -> ControlResponse.ok(""), "maintenance", "maybe");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("'maybe' is not on, off or status");
        HbRun both = against(q -> ControlResponse.ok(""), "maintenance", "on", "--node", "node1", "--group", "g");
        assertThat(both.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(asked).isEmpty();
        HbRun none = hb("maintenance", "on", "--state-dir=" + dir.resolve("nowhere"));
        assertThat(none.code()).isEqualTo(3);
    }
}
