package org.jheartbeat.cli.watchdog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.cli.logging.DatagramReceiver;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.jheartbeat.core.testkit.FakeClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's watchdogs on a fake clock, with a regular file standing in for the kernel device and a real unix
 * datagram socket for systemd's: the device is petted from the start, then by the loop every keepalive (500 ms
 * here), {@code WATCHDOG=1} every quarter of WatchdogSec, {@code 'V'} is the last byte after a clean stop, and
 * without a device or NOTIFY_SOCKET nothing is written or sent.
 */
class DaemonWatchdogsTest {
    private static final long PID = 4242;

    @TempDir
    Path dir;

    private ClusterConfig config(Optional<Path> watchdog) {
        ClusterConfig c = ConfigLoader.load(ConfigDirBuilder.validTwoNode().writeTo(dir.resolve("ha.d")), Optional.empty())
                .config().orElseThrow();
        assertThat(c.timing().keepalive()).isEqualTo(Duration.ofMillis(500));
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), c.resourceGroups(), c.stonith(), c.ping(), watchdog);
    }

    @Test
    void theLoopPetsBothOnTheirSchedulesAndACleanStopEndsWithV() throws Exception {
        Path device = Files.createFile(dir.resolve("watchdog"));
        Path notify = dir.resolve("notify");
        Socket systemd = DatagramReceiver.bind(notify);
        FakeClock clock = new FakeClock();
        DaemonWatchdogs w = DaemonWatchdogs.open(config(Optional.of(device)), Map.of("NOTIFY_SOCKET", notify.toString(),
                "WATCHDOG_USEC", "10000000", "WATCHDOG_PID", Long.toString(PID)), PID, clock);
        try {
            // before the loop runs (the start-up release holds it back) a thread of its own pets the device
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.size(device) >= 1);
            assertThat(DatagramReceiver.poll(systemd)).as("nothing for systemd before the loop runs").isNull();

            w.onWake(); // the loop's first wake-up: it pets from now on
            await().atMost(Duration.ofSeconds(60)).until(w::startupPetterStopped);
            long base = Files.size(device);
            assertThat(DatagramReceiver.receive(systemd)).isEqualTo("WATCHDOG=1");

            clock.advanceMillis(100);
            w.onWake();
            assertThat(Files.size(device)).as("100 ms later: not yet").isEqualTo(base);
            clock.advanceMillis(400);
            w.onWake();
            assertThat(Files.size(device)).as("a keepalive later").isEqualTo(base + 1);
            assertThat(DatagramReceiver.poll(systemd)).as("WATCHDOG=1 only every 2.5 s").isNull();
            clock.advanceMillis(1999);
            w.onWake();
            assertThat(DatagramReceiver.poll(systemd)).isNull();
            clock.advanceMillis(1);
            w.onWake();
            assertThat(DatagramReceiver.receive(systemd)).as("a quarter of WatchdogSec after the first").isEqualTo("WATCHDOG=1");
            assertThat(Files.size(device)).isEqualTo(base + 2);

            w.ready("cluster node node1 running");
            assertThat(DatagramReceiver.receive(systemd)).isEqualTo("READY=1\nSTATUS=cluster node node1 running");
            w.stopping("releasing resource groups (SIGTERM)");
            assertThat(DatagramReceiver.receive(systemd)).isEqualTo("STOPPING=1\nSTATUS=releasing resource groups (SIGTERM)");
        } finally {
            w.close();
            systemd.close();
        }
        byte[] written = Files.readAllBytes(device);
        assertThat(written[written.length - 1]).as("the last byte: the magic close").isEqualTo((byte) 'V');
        for (int i = 0; i < written.length - 1; i++) {
            assertThat(written[i]).as("pet %d", i).isZero();
        }
        clock.advanceMillis(5000);
        w.onWake();
        w.close();
        assertThat(Files.readAllBytes(device)).as("after the close nothing is written").isEqualTo(written);
    }

    @Test
    void withoutADeviceAndOutsideSystemdNothingIsWrittenOrSent() throws Exception {
        Path notify = dir.resolve("notify");
        Socket listening = DatagramReceiver.bind(notify); // there, but not named by any NOTIFY_SOCKET
        FakeClock clock = new FakeClock();
        try (DaemonWatchdogs w = DaemonWatchdogs.open(config(Optional.empty()), Map.of("WATCHDOG_USEC", "1000000"),
                PID, clock)) {
            for (int i = 0; i < 5; i++) {
                w.onWake();
                clock.advanceMillis(1000);
            }
            w.ready("x");
            w.stopping("y");
            assertThat(w.startupPetterStopped()).isTrue();
        } finally {
            assertThat(DatagramReceiver.poll(listening)).isNull();
            listening.close();
        }
    }

    @Test
    void underSystemdWithoutADeviceOnlySystemdIsPetted() throws Exception {
        Path notify = dir.resolve("notify");
        Socket systemd = DatagramReceiver.bind(notify);
        FakeClock clock = new FakeClock();
        try (DaemonWatchdogs w = DaemonWatchdogs.open(config(Optional.empty()), Map.of("NOTIFY_SOCKET", notify.toString(),
                "WATCHDOG_USEC", "1000000"), PID, clock)) {
            w.onWake();
            assertThat(DatagramReceiver.receive(systemd)).isEqualTo("WATCHDOG=1");
            clock.advanceMillis(249);
            w.onWake();
            assertThat(DatagramReceiver.poll(systemd)).isNull();
            clock.advanceMillis(1);
            w.onWake();
            assertThat(DatagramReceiver.receive(systemd)).isEqualTo("WATCHDOG=1");
        } finally {
            systemd.close();
        }
    }

    @Test
    void aDeviceThatCannotBeOpenedIsOneMessageSayingWhatToDo() {
        Path missing = dir.resolve("watchdog");
        assertThatThrownBy(() -> DaemonWatchdogs.open(config(Optional.of(missing)), Map.of(), PID, new FakeClock()))
                .isInstanceOf(DaemonWatchdogs.DeviceException.class).hasMessage("cannot open watchdog device " + missing
                        + " (ha.cf watchdog): No such file or directory; load the watchdog driver (modprobe softdog, or"
                        + " the board's own)");
        assertThat(missing).doesNotExist();
    }

    /** The daemon's exit 2 for a device it cannot open names the ha.cf line (hb daemon prefixes it). */
    @Test
    void theWatchdogLineOfHaCfIsNamed() throws Exception {
        Path cfg = ConfigDirBuilder.validHere().haCfAppend("watchdog /dev/null\n").writeTo(dir.resolve("w"));
        ClusterConfig c = ConfigLoader.load(cfg, Optional.empty()).config().orElseThrow();
        assertThat(DaemonWatchdogs.haCfLine(c)).isEqualTo(cfg.resolve("ha.cf") + ":11");
    }

    @Test
    void aNotifySocketThatCannotBeUsedIsOneMessage() {
        assertThatThrownBy(() -> DaemonWatchdogs.open(config(Optional.empty()), Map.of("NOTIFY_SOCKET", "notify"), PID,
                new FakeClock())).isInstanceOf(IOException.class).hasMessage("cannot notify systemd: NOTIFY_SOCKET=notify"
                        + " is neither an absolute path nor an abstract address (@name): cannot tell systemd anything");
    }
}
