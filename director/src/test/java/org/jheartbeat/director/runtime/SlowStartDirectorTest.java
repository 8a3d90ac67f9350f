package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.check.CheckResult;
import org.junit.jupiter.api.Test;

/**
 * The shell carries the slow start out: the weight raises come after the passes of checks (a kernel-style
 * backend), and a backend that applies the rules itself is told them instead. Real threads; the waits only
 * catch hangs.
 */
class SlowStartDirectorTest {
    static final String CF = "checkinterval=1\nchecktimeout=1\nquiescent=yes\nvirtual=198.18.0.100:80\n"
            + "\treal=198.18.0.21:80 gate 1\n\treal=198.18.0.23:80 gate 4\n\tscheduler=wlc\n\tchecktype=connect\n"
            + "\tslowstart=2\n\tresetcounts=yes\n";
    static final String BACK = "ipvsadm -e -t 198.18.0.100:80 -x 0 -y 0 -r 198.18.0.23:80 -g -w ";

    private static CheckFactory failingC(AtomicBoolean down) {
        return v -> (target, timeout) -> down.get() && target.server().getAddress().getHostAddress()
                .equals("198.18.0.23") ? CheckResult.down("refused", 0) : CheckResult.up(0);
    }

    @Test
    void aKernelStyleBackendGetsWeightOneThenTheRaisesAfterThePasses() throws Exception {
        FakeBackend backend = new FakeBackend();
        AtomicBoolean down = new AtomicBoolean();
        try (Director d = new Director(backend, failingC(down), MonotonicClock.system(), a -> { })) {
            d.start(DirectorKernelTest.config(CF));
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().contains(BACK + "4"));
            down.set(true);
            await().atMost(Duration.ofSeconds(20)).until(() -> !d.upStates().get(SlowStartKernelTest.VIP)
                    .get(SlowStartKernelTest.C));
            down.set(false);
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().contains(BACK + "1"));
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().lastIndexOf(BACK + "4")
                    > backend.commands().indexOf(BACK + "1"));
            List<String> forC = backend.commands().stream().filter(c -> c.contains("198.18.0.23")).toList();
            System.out.println("C's commands through the shell:\n  " + String.join("\n  ", forC));
            assertThat(forC).endsWith(BACK + "4");
        }
    }

    @Test
    void aBackendThatAppliesTheRulesItselfIsToldThemAndGetsNoSteps() throws Exception {
        FakeBackend backend = new FakeBackend();
        backend.appliesRejoinRules = true;
        AtomicBoolean down = new AtomicBoolean();
        try (Director d = new Director(backend, failingC(down), MonotonicClock.system(), a -> { })) {
            d.start(DirectorKernelTest.config(CF));
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().contains(BACK + "4"));
            assertThat(backend.rejoinRules).containsExactly("198.18.0.100:80 Rejoin[resetCounts=true, slowStartSeconds=2]");
            down.set(true);
            await().atMost(Duration.ofSeconds(20)).until(() -> !d.upStates().get(SlowStartKernelTest.VIP)
                    .get(SlowStartKernelTest.C));
            int before = backend.commands().size();
            down.set(false);
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().size() > before);
            assertThat(backend.commands().get(before)).isEqualTo(BACK + "4");
            assertThat(backend.commands()).doesNotContain(BACK + "1");
        }
    }
}
