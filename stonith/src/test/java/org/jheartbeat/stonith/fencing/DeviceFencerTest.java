package org.jheartbeat.stonith.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.loop.Fencer;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.Test;

/** The fencing policy on a recording device: which request fences, and when a powered-off node comes back. */
class DeviceFencerTest {
    private static final NodeName NODE1 = NodeName.of("node1");
    private static final Duration HANG = Duration.ofSeconds(30);

    /** Records every request; answers {@code answer} to each. */
    private static final class Recorder implements StonithDevice {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final boolean confirmsOff;
        volatile StonithResult answer = StonithResult.OK;

        Recorder(boolean confirmsOff) {
            this.confirmsOff = confirmsOff;
        }

        @Override
        public String type() {
            return "recorder";
        }

        @Override
        public List<String> configNames() {
            return List.of();
        }

        @Override
        public void configure(Map<String, String> params) {
        }

        @Override
        public StonithResult status() {
            return StonithResult.OK;
        }

        @Override
        public List<String> hostList() {
            return List.of("node1");
        }

        @Override
        public StonithResult reset(ResetRequest request, String node) {
            calls.add(request.word() + " " + node);
            return answer;
        }

        @Override
        public boolean confirmsPowerOff() {
            return confirmsOff;
        }
    }

    private static FencingPolicy policy(FencingPolicy.Action action, Duration powerOn) {
        return new FencingPolicy(action, Optional.ofNullable(powerOn));
    }

    @Test
    void autoPowersOffADeviceThatConfirmsItThenPowersTheNodeBackOn() throws Exception {
        Recorder dev = new Recorder(true);
        try (DeviceFencer f = new DeviceFencer(dev, policy(FencingPolicy.Action.AUTO, Duration.ofMillis(50)),
                MonotonicClock.system())) {
            Fencer.Result r = f.fence(NODE1).get();
            assertThat(r.fenced()).isTrue();
            assertThat(r.detail()).startsWith("recorder off node1: OK after ").endsWith("; power-on in 50 ms");
            await().atMost(HANG).until(() -> dev.calls.size() == 2);
            assertThat(dev.calls).containsExactly("off node1", "on node1");
        }
    }

    @Test
    void autoResetsADeviceWithoutAConfirmedOffAndNeverPowersOn() throws Exception {
        Recorder dev = new Recorder(false);
        try (DeviceFencer f = new DeviceFencer(dev, policy(FencingPolicy.Action.AUTO, Duration.ofMillis(1)),
                MonotonicClock.system())) {
            assertThat(f.fence(NODE1).get().detail()).startsWith("recorder reset node1: OK");
            Thread.sleep(100);
            assertThat(f.status().get().fenced()).as("the worker is free").isTrue();
            assertThat(dev.calls).containsExactly("reset node1");
        }
    }

    @Test
    void explicitActionsWinAndNeverLeavesTheNodeOff() throws Exception {
        Recorder dev = new Recorder(true);
        try (DeviceFencer f = new DeviceFencer(dev, policy(FencingPolicy.Action.RESET, null), MonotonicClock.system())) {
            f.fence(NODE1).get();
        }
        Recorder plain = new Recorder(false);
        try (DeviceFencer f = new DeviceFencer(plain, policy(FencingPolicy.Action.OFF, null), MonotonicClock.system())) {
            assertThat(f.fence(NODE1).get().detail()).endsWith("; stays off");
            Thread.sleep(100);
        }
        assertThat(dev.calls).containsExactly("reset node1");
        assertThat(plain.calls).containsExactly("off node1");
    }

    @Test
    void aFailedOffIsNotFencedAndSchedulesNoPowerOn() throws Exception {
        Recorder dev = new Recorder(true);
        dev.answer = StonithResult.RESETFAIL;
        try (DeviceFencer f = new DeviceFencer(dev, policy(FencingPolicy.Action.AUTO, Duration.ofMillis(1)),
                MonotonicClock.system())) {
            Fencer.Result r = f.fence(NODE1).get();
            assertThat(r.fenced()).isFalse();
            assertThat(r.detail()).contains("RESETFAIL");
            Thread.sleep(100);
            assertThat(f.status().get().fenced()).isTrue();
        }
        assertThat(dev.calls).containsExactly("off node1");
    }

    @Test
    void fencingAgainCancelsThePendingPowerOnAndClosingDropsIt() throws Exception {
        Recorder dev = new Recorder(true);
        try (DeviceFencer f = new DeviceFencer(dev, policy(FencingPolicy.Action.AUTO, Duration.ofMinutes(10)),
                MonotonicClock.system())) {
            f.fence(NODE1).get();
            f.fence(NODE1).get();
        }
        assertThat(dev.calls).containsExactly("off node1", "off node1");
    }

    @Test
    void policyWords() {
        assertThat(FencingPolicy.parseAction(" OFF ")).isEqualTo(FencingPolicy.Action.OFF);
        assertThat(FencingPolicy.parsePowerOn("never")).isEmpty();
        assertThat(FencingPolicy.parsePowerOn("2min")).contains(Duration.ofMinutes(2));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FencingPolicy.parseAction("poweroff"))
                .hasMessageContaining("write auto");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FencingPolicy.parsePowerOn("soon"))
                .hasMessageContaining("write never");
    }
}
