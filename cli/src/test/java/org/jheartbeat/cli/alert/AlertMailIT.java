package org.jheartbeat.cli.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.cli.config.AlertSettings;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.time.MonotonicClock;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alert mail through a real SMTP server (Exim on loopback), and through one that accepts connections and never
 * answers: that one fails its own rule at its timeout and delays no other rule.
 */
@Tag("root")
class AlertMailIT {
    private static final Duration HANG = Duration.ofSeconds(60);
    private static final Clock WALL = Clock.fixed(Instant.parse("2026-12-06T03:12:04Z"), ZoneOffset.UTC);
    @TempDir
    Path dir;

    private static ClusterEvent dead(long seq) {
        return new ClusterEvent(seq, 1796526724518L, "node1", EventKind.NODE_DEAD, "node2", "no beat for 3000 ms", "",
                3000);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void aMailRuleDeliversOneMessagePerEventToARealSmtpServer() throws Exception {
        assumeTrue(EximServer.available(), "needs exim4 and root");
        int port = freePort();
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x")); // Exim delivers as nobody
        try (EximServer exim = new EximServer(dir.resolve("exim"), null, "127.0.0.1", port)) {
            AlertSettings.Rule mail = new AlertSettings.Rule(3, new AlertSettings.Mail(List.of("ops@example.com"),
                    Optional.empty(), "127.0.0.1", port), Set.of(EventKind.NODE_DEAD), Duration.ofSeconds(30),
                    Optional.empty());
            try (AlertDispatcher d = AlertDispatcher.start(new AlertSettings(List.of(mail)), "node1",
                    MonotonicClock.system(), WALL)) {
                d.record(new ClusterEvent(5, 1796526724518L, "node1", EventKind.LINK_DOWN, "node2/eth1", "", "", -1));
                d.record(dead(6));
                await().atMost(HANG).until(() -> d.stats().sent() == 1);
                await().atMost(HANG).until(() -> exim.messages().contains("\"seq\":6"));
                assertThat(d.stats()).isEqualTo(new AlertDispatcher.Stats(1, 0, 0, 0, 0));
            }
            String box = exim.messages();
            assertThat(box.split("\n")).filteredOn(l -> l.startsWith("From ")).hasSize(1);
            assertThat(box).contains("for ops@example.com;", "From: root@node1", "To: ops@example.com",
                    "Subject: [jheartbeat] node1: node-dead node2 (no beat for 3000 ms), 3000 ms",
                    "Date: Sun, 6 Dec 2026 03:12:04 +0000", "kind:     node-dead", "time:     2026-12-06T03:12:04.518Z");
            assertThat(exim.log()).contains("<= root@node1", "=> ops <ops@example.com> R=all T=tofile");
        }
    }

    @Test
    void anSmtpServerThatNeverAnswersFailsItsRuleAtItsTimeoutAndDelaysNoOtherRule() throws Exception {
        Path out = dir.resolve("script.out");
        Path script = dir.resolve("alert.sh");
        Files.writeString(script, "#!/bin/sh\necho \"$HB_EVENT_SEQ\" >> " + out + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        // the kernel completes connections into the backlog; nothing ever accepts them or says 220
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AlertSettings.Rule hung = new AlertSettings.Rule(3, new AlertSettings.Mail(List.of("root"),
                    Optional.empty(), "127.0.0.1", silent.getLocalPort()), Set.of(), HANG, Optional.empty());
            AlertSettings.Rule quick = new AlertSettings.Rule(8, new AlertSettings.Script(script, ""), Set.of(), HANG,
                    Optional.empty());
            try (AlertDispatcher d = AlertDispatcher.start(new AlertSettings(List.of(hung, quick)), "node1",
                    MonotonicClock.system(), WALL)) {
                d.record(dead(1));
                d.record(dead(2));
                await().atMost(HANG).until(() -> Files.exists(out) && Files.readAllLines(out).size() == 2);
                // both scripts ran while the mail of the first event still waits for a greeting
                assertThat(d.stats().failed()).isZero();
                assertThat(d.stats().sent()).isEqualTo(2);
            }
            AlertSettings.Rule shortOne = new AlertSettings.Rule(3, new AlertSettings.Mail(List.of("root"),
                    Optional.empty(), "127.0.0.1", silent.getLocalPort()), Set.of(), Duration.ofSeconds(1),
                    Optional.empty());
            try (AlertDispatcher d = AlertDispatcher.start(new AlertSettings(List.of(shortOne)), "node1",
                    MonotonicClock.system(), WALL)) {
                d.record(dead(3));
                await().atMost(HANG).until(() -> d.stats().failed() == 1);
                assertThat(d.stats().sent()).isZero();
            }
        }
    }
}
