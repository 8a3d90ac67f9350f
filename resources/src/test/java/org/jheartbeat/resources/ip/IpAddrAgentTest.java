package org.jheartbeat.resources.ip;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.resources.AgentOutcome;
import org.junit.jupiter.api.Test;

class IpAddrAgentTest {
    private static final List<String> SHOW = List.of("ip", "-o", "-4", "addr", "show", "dev", "eth0");
    private static final List<String> ROUTES = List.of("ip", "-4", "-o", "route", "show");
    private static final ProcessResult ABSENT = ProcessResult.exited(0,
            "3: eth0    inet 198.18.0.1/24 brd 198.18.0.255 scope global eth0\\       valid_lft forever\n");
    private static final ProcessResult PRESENT = ProcessResult.exited(0, ABSENT.stdout()
            + "3: eth0    inet 198.18.0.100/24 brd 198.18.0.255 scope global secondary eth0\\       valid_lft forever\n");

    private final RecordingProcessRunner runner = new RecordingProcessRunner();
    private final List<Runnable> background = new ArrayList<>();

    private IpAddrAgent agent(String spec) {
        return new IpAddrAgent(IpAddrSpec.parse(spec), runner, IpCommands.DEFAULT, GratuitousArp.DEFAULT, background::add);
    }

    @Test
    void startAddsThenAnnouncesInTheBackground() {
        runner.on(SHOW, ABSENT);
        assertThat(agent("198.18.0.100/24/eth0").start().isOk()).isTrue();
        assertThat(runner.argvs()).containsExactly(SHOW,
                List.of("ip", "-4", "addr", "add", "198.18.0.100/24", "brd", "+", "dev", "eth0"));
        assertThat(background).hasSize(1);
        background.get(0).run();
        assertThat(runner.argvsStartingWith(List.of("arping"))).as("five single-ARP runs, each cancellable")
                .hasSize(5).containsOnly(List.of("arping", "-U", "-c", "1", "-I", "eth0", "198.18.0.100"));
    }

    @Test
    void stopCancelsTheRestOfTheAnnouncement() {
        runner.on(SHOW, ABSENT, PRESENT);
        ArpCampaigns campaigns = new ArpCampaigns();
        java.util.concurrent.atomic.AtomicInteger arps = new java.util.concurrent.atomic.AtomicInteger();
        IpAddrAgent[] stopper = new IpAddrAgent[1];
        org.jheartbeat.core.exec.ProcessRunner counting = spec -> {
            if (spec.argv().get(0).equals("arping") && arps.incrementAndGet() == 2) {
                stopper[0].stop(); // the address is released while the announcement runs
            }
            return runner.run(spec);
        };
        IpAddrAgent a = new IpAddrAgent(IpAddrSpec.parse("198.18.0.100/24/eth0"), counting, IpCommands.DEFAULT,
                GratuitousArp.DEFAULT, background::add, campaigns);
        stopper[0] = new IpAddrAgent(IpAddrSpec.parse("198.18.0.100/24/eth0"), runner, IpCommands.DEFAULT,
                GratuitousArp.DEFAULT, background::add, campaigns);
        a.start();
        background.forEach(Runnable::run);
        assertThat(arps.get()).as("no ARP after the stop").isEqualTo(2);
    }

    @Test
    void synchronousFirstArpWhenConfigured() {
        runner.on(SHOW, ABSENT);
        var agent = new IpAddrAgent(IpAddrSpec.parse("198.18.0.100/24/eth0"), runner, IpCommands.DEFAULT,
                new GratuitousArp("arping", 3, true), background::add);
        agent.start();
        assertThat(runner.argvsStartingWith(List.of("arping")))
                .containsExactly(List.of("arping", "-U", "-c", "1", "-I", "eth0", "198.18.0.100"));
        background.forEach(Runnable::run);
        assertThat(runner.argvsStartingWith(List.of("arping"))).hasSize(3);
    }

    private static final List<String> ADD = List.of("ip", "-4", "addr", "add", "198.18.0.100/24", "brd", "+", "dev",
            "eth0");
    private static final List<String> ARP1 = List.of("arping", "-U", "-c", "1", "-I", "eth0", "198.18.0.100");

    /** A launcher that records what it started and what was done to it. */
    private static final class FakeLauncher implements ArpLauncher {
        final List<String> events = new ArrayList<>();
        boolean confirm = true;
        int exitAfterWaits = 1;

        @Override
        public Launched launch(List<String> argv, java.time.Duration maxWait) {
            events.add("launch " + String.join(" ", argv));
            return new Launched() {
                int waits;

                @Override
                public boolean confirmed() {
                    return confirm;
                }

                @Override
                public int awaitExit(java.time.Duration timeout) {
                    events.add("await");
                    return ++waits >= exitAfterWaits ? 0 : -1;
                }

                @Override
                public String stderr() {
                    return "";
                }

                @Override
                public void kill() {
                    events.add("kill");
                }
            };
        }
    }

    @Test
    void knownStoppedStartAddsWithoutListingTheAddressesAgain() {
        assertThat(agent("198.18.0.100/24/eth0").startKnownStopped().isOk()).isTrue();
        assertThat(runner.argvs()).as("no ip addr show before the add").containsExactly(ADD);
        assertThat(background).hasSize(1);
    }

    @Test
    void knownStoppedStartOfAnAddressThatAppearedMeanwhileCountsAsRunning() {
        runner.on(List.of("ip", "-4", "addr", "add"), new ProcessResult(2, "", "RTNETLINK answers: File exists\n", false));
        var result = agent("198.18.0.100/24/eth0").startKnownStopped();
        assertThat(result.isOk()).isTrue();
        assertThat(result.message()).isEqualTo("already running");
        assertThat(background).as("announced again").hasSize(1);
    }

    @Test
    void iproute2SaysAlreadyAssignedInEitherOfItsWordings() {
        assertThat(IpAddrAgent.alreadyAssigned("Error: ipv4: Address already assigned.\n")).isTrue();
        assertThat(IpAddrAgent.alreadyAssigned("RTNETLINK answers: File exists\n")).isTrue();
        assertThat(IpAddrAgent.alreadyAssigned("Error: Nexthop device is not up.\n")).isFalse();
    }

    @Test
    void knownStoppedStartThatCannotAddFails() {
        runner.on(List.of("ip", "-4", "addr", "add"),
                new ProcessResult(2, "", "RTNETLINK answers: Operation not permitted\n", false));
        var result = agent("198.18.0.100/24/eth0").startKnownStopped();
        assertThat(result.outcome()).isEqualTo(AgentOutcome.FAILED);
        assertThat(result.message()).contains("Operation not permitted");
        assertThat(background).isEmpty();
    }

    @Test
    void firstArpIsConfirmedOutBeforeStartReturnsAndTheRestFollowInTheBackground() {
        FakeLauncher launcher = new FakeLauncher();
        launcher.exitAfterWaits = 3;
        var agent = new IpAddrAgent(IpAddrSpec.parse("198.18.0.100/24/eth0"), runner, IpCommands.DEFAULT,
                GratuitousArp.FIRST_CONFIRMED, background::add, new ArpCampaigns(), launcher);
        try (var logs = new org.jheartbeat.resources.fakes.LogCapture(IpAddrAgent.class)) {
            assertThat(agent.startKnownStopped().isOk()).isTrue();
            assertThat(logs.lines()).contains("INFO Gratuitous ARP for 198.18.0.100 on eth0 sent");
        }
        assertThat(launcher.events).as("launched before start returned, not waited for")
                .containsExactly("launch " + String.join(" ", ARP1));
        assertThat(runner.argvsStartingWith(List.of("arping"))).isEmpty();
        background.forEach(Runnable::run);
        assertThat(launcher.events).containsExactly("launch " + String.join(" ", ARP1), "await", "await", "await");
        assertThat(runner.argvsStartingWith(List.of("arping"))).as("the other four, one run each").hasSize(4)
                .containsOnly(ARP1);
    }

    @Test
    void aStopKillsTheLingeringFirstArpingAndSendsNoMore() {
        FakeLauncher launcher = new FakeLauncher();
        launcher.exitAfterWaits = Integer.MAX_VALUE;
        ArpCampaigns campaigns = new ArpCampaigns();
        var agent = new IpAddrAgent(IpAddrSpec.parse("198.18.0.100/24/eth0"), runner, IpCommands.DEFAULT,
                GratuitousArp.FIRST_CONFIRMED, background::add, campaigns, launcher);
        agent.startKnownStopped();
        runner.on(SHOW, PRESENT);
        agent.stop();
        background.forEach(Runnable::run);
        assertThat(launcher.events).last().isEqualTo("kill");
        assertThat(runner.argvsStartingWith(List.of("arping"))).isEmpty();
    }

    @Test
    void anUnconfirmedFirstArpIsWarnedAboutAndStartStillSucceeds() {
        FakeLauncher launcher = new FakeLauncher();
        launcher.confirm = false;
        var agent = new IpAddrAgent(IpAddrSpec.parse("198.18.0.100/24/eth0"), runner, IpCommands.DEFAULT,
                GratuitousArp.FIRST_CONFIRMED, background::add, new ArpCampaigns(), launcher);
        try (var logs = new org.jheartbeat.resources.fakes.LogCapture(IpAddrAgent.class)) {
            assertThat(agent.startKnownStopped().isOk()).isTrue();
            assertThat(logs.lines()).anyMatch(m -> m.contains("not confirmed sent within 200 ms"));
        }
    }

    @Test
    void startOfAPresentAddressOnlyAnnouncesItAgain() {
        runner.on(SHOW, PRESENT);
        assertThat(agent("198.18.0.100/24/eth0").start().message()).isEqualTo("already running");
        assertThat(runner.argvs()).containsExactly(SHOW);
        assertThat(background).hasSize(1);
    }

    @Test
    void failedAddIsAFailureAndSendsNoArp() {
        runner.on(SHOW, ABSENT).on(List.of("ip", "-4", "addr", "add"),
                new ProcessResult(2, "", "RTNETLINK answers: Operation not permitted\n", false));
        var result = agent("198.18.0.100/24/eth0").start();
        assertThat(result.outcome()).isEqualTo(AgentOutcome.FAILED);
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.message()).contains("Operation not permitted");
        assertThat(background).isEmpty();
    }

    @Test
    void statusFollowsTheAddressTable() {
        runner.on(SHOW, ABSENT, PRESENT);
        assertThat(agent("198.18.0.100/24/eth0").status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(agent("198.18.0.100/24/eth0").status().outcome()).isEqualTo(AgentOutcome.RUNNING);
    }

    @Test
    void stopDeletesWithTheAssignedPrefixAndIsIdempotent() {
        runner.on(SHOW, PRESENT, ABSENT);
        assertThat(agent("198.18.0.100/16/eth0").stop().isOk()).isTrue();
        assertThat(agent("198.18.0.100/16/eth0").stop().isOk()).isTrue();
        assertThat(runner.argvs()).containsExactly(SHOW,
                List.of("ip", "-4", "addr", "del", "198.18.0.100/24", "dev", "eth0"), SHOW);
    }

    @Test
    void missingPrefixAndInterfaceComeFromTheRoutingTable() {
        runner.on(ROUTES, ProcessResult.exited(0, """
                default via 198.18.0.254 dev eth0
                198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.1
                """)).on(SHOW, ABSENT);
        agent("198.18.0.100").start();
        assertThat(runner.argvs()).containsExactly(ROUTES, SHOW,
                List.of("ip", "-4", "addr", "add", "198.18.0.100/24", "brd", "+", "dev", "eth0"));
    }

    @Test
    void noRouteIsAFailureNotAnException() {
        runner.on(ROUTES, ProcessResult.exited(0, "default via 198.18.0.254 dev eth0\n"));
        var result = agent("198.18.0.100").start();
        assertThat(result.outcome()).isEqualTo(AgentOutcome.FAILED);
        assertThat(result.message()).contains("no non-default route");
        assertThat(agent("198.18.0.100").status().outcome()).isEqualTo(AgentOutcome.FAILED);
    }

    @Test
    void ipThatCannotRunIsAFailure() {
        runner.failOn(List.of("ip"), new IOException("No such file or directory"));
        assertThat(agent("198.18.0.100/24/eth0").stop().outcome()).isEqualTo(AgentOutcome.FAILED);
    }
}
