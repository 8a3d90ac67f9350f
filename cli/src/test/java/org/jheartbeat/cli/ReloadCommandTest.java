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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb reload} against a stand-in daemon: the changes are printed as the daemon lists them
 * (exit 0), an invalid configuration prints its {@code file:line} messages and exits 2, groups in flux
 * exit 75, no daemon exits 3.
 */
class ReloadCommandTest {
    @TempDir
    Path dir;

    final List<ControlRequest> asked = new ArrayList<>();

    HbRun against(Function<ControlRequest, ControlResponse> daemon) throws Exception {
        return StandInDaemon.against(dir, asked, daemon, "reload");
    }

    @Test
    void printsOneLinePerChangeAndExitsZero() throws Exception {
        String body = "ha.cf: keepalive 500 ms -> 1000 ms (applied)\n"
                + "ha.cf: udpport 694 -> 695 (needs a restart; not applied)\n";
        HbRun r = against(x -> ControlResponse.ok(body));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(body);
        assertThat(asked).containsExactly(new ControlRequest.Reload());
    }

    @Test
    void anInvalidConfigurationPrintsTheCheckMessagesAndExitsTwo() throws Exception {
        HbRun r = against(x -> new ControlResponse(ControlResponse.Kind.ERROR,
                "configuration errors in /etc/ha.d; nothing applied, the node runs on as before (authkeys included)",
                "/etc/ha.d/authkeys:2: Invalid authtype [sha256]: expected crc, md5 or sha1\n"));
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("/etc/ha.d/authkeys:2: Invalid authtype [sha256]: expected crc, md5 or sha1\n"
                + "hb: reload: configuration errors in /etc/ha.d; nothing applied, the node runs on as before"
                + " (authkeys included)\n");
    }

    @Test
    void aCallerWhoMayOnlyReadIsDeniedWithThePermissionExitCode() throws Exception {
        HbRun denied = against(x -> ControlResponse.denied("'reload' changes the cluster and user nagios (group"
                + " haclient) may only read; run it as root"));
        assertThat(denied.code()).isEqualTo(ExitCodes.PERMISSION);
        assertThat(denied.err()).isEqualTo("hb: denied: 'reload' changes the cluster and user nagios (group haclient)"
                + " may only read; run it as root\n");
    }

    @Test
    void groupsInFluxAreRefusedAndOtherFailuresExitOne() throws Exception {
        HbRun refused = against(x -> ControlResponse.refused("resource groups are still starting or stopping"));
        assertThat(refused.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(refused.err()).isEqualTo("hb: reload refused: resource groups are still starting or stopping\n");
        HbRun failed = against(x -> ControlResponse.error("reload interrupted: the daemon is shutting down"));
        assertThat(failed.code()).isEqualTo(ExitCodes.FAILURE);
    }

    @Test
    void withoutADaemonItExitsThree() {
        HbRun r = hb("reload", "--state-dir=" + dir.resolve("none"));
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_RUNNING);
        assertThat(hb("reload", "--help").out()).contains("as SIGHUP does").contains("2    invalid configuration").contains("75   refused");
    }
}
