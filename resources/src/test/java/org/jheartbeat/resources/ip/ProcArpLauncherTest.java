package org.jheartbeat.resources.ip;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcArpLauncherTest {
    private static final Set<String> X86 = Set.of("7", "271");

    @Test
    void theProgramAsleepInPollHasSentItsFirstArp() {
        assertThat(ProcArpLauncher.inEventLoop("arping", "arping\n", "poll_schedule_timeout.constprop.0", "", X86))
                .isTrue();
        assertThat(ProcArpLauncher.inEventLoop("arping", "arping\n", "0", "7 0x7fff 0x4 0xffffffff 0x0 0x0 0x14 0x1 0x2\n",
                X86)).as("kernel symbols hidden: the syscall number tells").isTrue();
    }

    @Test
    void anythingElseHasNot() {
        assertThat(ProcArpLauncher.inEventLoop("arping", "jspawnhelper\n", "poll_schedule_timeout", "7 0x1 0x2", X86))
                .as("not exec'd yet").isFalse();
        assertThat(ProcArpLauncher.inEventLoop("arping", "arping\n", "netlink_recvmsg", "45 0x3 0x4", X86))
                .as("still looking up its interface").isFalse();
        assertThat(ProcArpLauncher.inEventLoop("arping", "arping\n", "", "running\n", X86)).isFalse();
        assertThat(ProcArpLauncher.inEventLoop("arping", "", "", "", X86)).as("gone").isFalse();
    }

    @Test
    void aProgramThatExitedZeroCountsAsConfirmedAndAFailureDoesNot() throws Exception {
        ArpLauncher.Launched ok = new ProcArpLauncher().launch(List.of("true"), Duration.ofSeconds(5));
        assertThat(ok.confirmed()).isTrue();
        assertThat(ok.awaitExit(Duration.ofSeconds(5))).isZero();
        ArpLauncher.Launched failed = new ProcArpLauncher().launch(List.of("sh", "-c", "echo no device >&2; exit 2"),
                Duration.ofSeconds(5));
        assertThat(failed.confirmed()).isFalse();
        assertThat(failed.awaitExit(Duration.ofSeconds(5))).isEqualTo(2);
        assertThat(failed.stderr()).isEqualTo("no device");
    }

    @Test
    void aProgramThatNeverPollsIsNotConfirmedAndCanBeKilled() throws Exception {
        ArpLauncher.Launched l = new ProcArpLauncher().launch(List.of("sleep", "30"), Duration.ofMillis(100));
        assertThat(l.confirmed()).isFalse();
        assertThat(l.awaitExit(Duration.ofMillis(10))).isEqualTo(-1);
        l.kill();
        assertThat(l.awaitExit(Duration.ofSeconds(10))).isNotEqualTo(-1);
    }
}
