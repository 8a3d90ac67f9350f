package org.jheartbeat.stonith.fencing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.loop.Fencer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Self-fencing runs the admin's command with the reason (a file stands in for a reboot: no test reboots). */
class SelfFencingFencerTest {
    @TempDir
    Path tmp;

    @Test
    void runsTheCommandWithTheReasonAndLeavesPeerFencingToTheDevice() throws Exception {
        Path mark = tmp.resolve("reset");
        Fencer device = node -> CompletableFuture.completedFuture(new Fencer.Result(true, "device reset " + node));
        SelfFencingFencer f = new SelfFencingFencer(device,
                "printf '%s' \"$HB_SELF_FENCE_REASON\" > " + mark, new OsProcessRunner());
        ProcessResult r = f.run("resource group g1 could not be stopped").orElseThrow();
        assertThat(r.exitCode()).isZero();
        assertThat(Files.readString(mark)).isEqualTo("resource group g1 could not be stopped");
        assertThat(f.fence(NodeName.of("node2")).get().detail()).isEqualTo("device reset node2");
        assertThat(f.status().get().fenced()).as("status goes to the device's fencer (none here)").isFalse();
    }

    @Test
    void aCommandThatCannotRunIsReportedNotThrown() {
        SelfFencingFencer f = new SelfFencingFencer(Fencer.NONE, "exit 3", new OsProcessRunner());
        assertThat(f.run("x").orElseThrow().exitCode()).isEqualTo(3);
    }
}
