package org.jheartbeat.cli.watchdog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.cli.logging.DatagramReceiver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sd_notify against a real unix datagram socket, at a path and at an abstract address. */
class SystemdNotifierTest {
    private static final long PID = 4242;

    @TempDir
    Path dir;

    @Test
    void notStartedBySystemdThereIsNoNotifier() throws Exception {
        assertThat(SystemdNotifier.fromEnvironment(Map.of(), PID)).isEmpty();
        assertThat(SystemdNotifier.fromEnvironment(Map.of("NOTIFY_SOCKET", "", "WATCHDOG_USEC", "10000000"), PID))
                .isEmpty();
    }

    @Test
    void readyWatchdogAndStoppingArriveAsOneDatagramEachAtAPath() throws Exception {
        Path path = dir.resolve("notify");
        Socket receiver = DatagramReceiver.bind(path);
        try (SystemdNotifier n = SystemdNotifier.fromEnvironment(Map.of("NOTIFY_SOCKET", path.toString()), PID)
                .orElseThrow()) {
            n.ready("cluster node node1 running");
            assertThat(DatagramReceiver.receive(receiver)).isEqualTo("READY=1\nSTATUS=cluster node node1 running");
            n.watchdogPet();
            assertThat(DatagramReceiver.receive(receiver)).isEqualTo("WATCHDOG=1");
            n.stopping("releasing resource groups (SIGTERM)");
            assertThat(DatagramReceiver.receive(receiver))
                    .isEqualTo("STOPPING=1\nSTATUS=releasing resource groups (SIGTERM)");
            assertThat(n.watchdog()).as("no WATCHDOG_USEC").isEmpty();
        } finally {
            receiver.close();
        }
    }

    @Test
    void anAbstractAddressIsWrittenWithAnAt() throws Exception {
        String name = "jheartbeat-test-notify-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Socket receiver = DatagramReceiver.bind("\0" + name);
        try (SystemdNotifier n = SystemdNotifier.fromEnvironment(Map.of("NOTIFY_SOCKET", "@" + name), PID)
                .orElseThrow()) {
            n.watchdogPet();
            assertThat(DatagramReceiver.receive(receiver)).isEqualTo("WATCHDOG=1");
        } finally {
            receiver.close();
        }
    }

    @Test
    void aSocketThatIsGoneIsLoggedNotThrownAndTheNextSendWorksWhenItIsBack() throws Exception {
        Path path = dir.resolve("notify");
        try (SystemdNotifier n = SystemdNotifier.fromEnvironment(Map.of("NOTIFY_SOCKET", path.toString()), PID)
                .orElseThrow()) {
            n.watchdogPet(); // nobody there: ENOENT, logged
            Socket receiver = DatagramReceiver.bind(path);
            try {
                n.watchdogPet();
                assertThat(DatagramReceiver.receive(receiver)).isEqualTo("WATCHDOG=1");
                assertThat(DatagramReceiver.poll(receiver)).as("the first pet was lost, not queued").isNull();
            } finally {
                receiver.close();
            }
        }
    }

    @Test
    void aNotifySocketThatIsNeitherAPathNorAbstractIsRefused() {
        assertThatThrownBy(() -> SystemdNotifier.fromEnvironment(Map.of("NOTIFY_SOCKET", "run/notify"), PID))
                .isInstanceOf(IOException.class).hasMessage("NOTIFY_SOCKET=run/notify is neither an absolute path nor an"
                        + " abstract address (@name): cannot tell systemd anything");
        assertThatThrownBy(() -> SystemdNotifier.fromEnvironment(Map.of("NOTIFY_SOCKET", "@"), PID))
                .isInstanceOf(IOException.class);
    }

    @Test
    void theWatchdogTimeoutIsSystemdsWhenItIsForThisProcess() {
        assertThat(SystemdNotifier.watchdogInterval(Map.of("WATCHDOG_USEC", "10000000"), PID))
                .contains(Duration.ofSeconds(10));
        assertThat(SystemdNotifier.watchdogInterval(Map.of("WATCHDOG_USEC", "10000000", "WATCHDOG_PID", "4242"), PID))
                .contains(Duration.ofSeconds(10));
        assertThat(SystemdNotifier.watchdogInterval(Map.of("WATCHDOG_USEC", "10000000", "WATCHDOG_PID", "1"), PID))
                .as("another process's watchdog").isEmpty();
        assertThat(SystemdNotifier.watchdogInterval(Map.of("WATCHDOG_USEC", "0"), PID)).isEmpty();
        assertThat(SystemdNotifier.watchdogInterval(Map.of("WATCHDOG_USEC", "10s"), PID)).isEmpty();
        assertThat(SystemdNotifier.watchdogInterval(Map.of(), PID)).isEqualTo(Optional.empty());
    }
}
