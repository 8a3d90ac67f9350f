package org.jheartbeat.cli.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.jheartbeat.cli.config.AlertSettings;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dispatcher on real scripts in a temporary directory, fed events directly. */
class AlertDispatcherTest {
    private static final Duration HANG = Duration.ofSeconds(60);
    private static final Clock WALL = Clock.fixed(Instant.parse("2026-12-06T03:12:04.518Z"), ZoneOffset.UTC);
    @TempDir
    Path dir;
    private final AtomicLong nanos = new AtomicLong();

    private Path script(String name, String body) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    private AlertDispatcher dispatcher(AlertSettings.Rule... rules) {
        return new AlertDispatcher(new AlertSettings(List.of(rules)), "node1", nanos::get, WALL, new OsProcessRunner(),
                (m, f, msg, t) -> { throw new AssertionError("no mail here"); });
    }

    private static AlertSettings.Rule rule(Path script, Set<EventKind> kinds, Duration timeout,
                                           Optional<AlertSettings.RateLimit> rate) {
        return new AlertSettings.Rule(7, new AlertSettings.Script(script, "ops"), kinds, timeout, rate);
    }

    private static ClusterEvent event(long seq, EventKind kind, String subject) {
        return new ClusterEvent(seq, 1796526724518L + seq, "node1", kind, subject, "no beat for 10000 ms",
                "", 10000);
    }

    private static List<String> lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    @Test
    void theScriptSeesTheEventInItsEnvironment() throws Exception {
        Path out = dir.resolve("env.out");
        Path s = script("env.sh", "env | grep '^HB_' | sort > " + out + ".tmp; mv " + out + ".tmp " + out);
        try (AlertDispatcher d = dispatcher(rule(s, Set.of(), HANG, Optional.empty()))) {
            d.record(new ClusterEvent(42, 1796526724518L, "node1", EventKind.NODE_DEAD, "node2", "no beat for 10000 ms",
                    "", 10000));
            await().atMost(HANG).until(() -> Files.exists(out));
            await().atMost(HANG).until(() -> d.stats().sent() == 1);
        }
        Map<String, String> env = lines(out).stream().map(l -> l.split("=", 2))
                .collect(Collectors.toMap(a -> a[0], a -> a.length > 1 ? a[1] : ""));
        assertThat(env).containsEntry("HB_EVENT_KIND", "node-dead").containsEntry("HB_EVENT_NODE", "node1")
                .containsEntry("HB_EVENT_SUBJECT", "node2").containsEntry("HB_EVENT_CAUSE", "no beat for 10000 ms")
                .containsEntry("HB_EVENT_BY", "").containsEntry("HB_EVENT_TIME", "2026-12-06T03:12:04.518Z")
                .containsEntry("HB_EVENT_MS", "1796526724518").containsEntry("HB_EVENT_DURATION_MS", "10000")
                .containsEntry("HB_EVENT_SEQ", "42").containsEntry("HB_ALERT_RECIPIENT", "ops")
                .containsEntry("HB_ALERT_HELD", "0").containsEntry("HB_ALERT_HELD_KINDS", "")
                .containsEntry("HB_EVENT_DESC", "node1: node-dead node2 (no beat for 10000 ms), 10000 ms");
        assertThat(env.get("HB_EVENT_JSON")).startsWith("{\"seq\":42,\"time\":\"2026-12-06T03:12:04.518Z\"");
    }

    @Test
    void aScriptPastItsTimeoutIsKilledWithEverythingItStartedAndCounted() throws Exception {
        Path bg = dir.resolve("bg.pid");
        Path s = script("hang.sh", "sleep 300 & echo $! > " + bg + ".tmp; mv " + bg + ".tmp " + bg + "; sleep 300");
        try (AlertDispatcher d = dispatcher(rule(s, Set.of(), Duration.ofMillis(500), Optional.empty()))) {
            d.record(event(1, EventKind.NODE_DEAD, "node2"));
            await().atMost(HANG).until(() -> d.stats().timedOut() == 1);
            assertThat(d.stats()).isEqualTo(new AlertDispatcher.Stats(0, 1, 1, 0, 0));
            long pid = Long.parseLong(lines(bg).get(0).trim());
            // the background sleep was in the script's process group: killed with it
            await().atMost(HANG).until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        }
    }

    @Test
    void aHangingScriptDelaysNoOtherRule() throws Exception {
        Path hangPid = dir.resolve("hang.pid");
        Path fast = dir.resolve("fast.out");
        Path hang = script("hang.sh", "echo $$ > " + hangPid + ".tmp; mv " + hangPid + ".tmp " + hangPid
                + "; exec sleep 300");
        Path quick = script("quick.sh", "echo \"$HB_EVENT_SEQ\" >> " + fast);
        try (AlertDispatcher d = dispatcher(rule(hang, Set.of(), HANG, Optional.empty()),
                rule(quick, Set.of(), HANG, Optional.empty()))) {
            d.record(event(1, EventKind.NODE_DEAD, "node2"));
            d.record(event(2, EventKind.GROUP_STARTED, "web"));
            await().atMost(HANG).until(() -> lines(fast).size() == 2);
            await().atMost(HANG).until(() -> Files.exists(hangPid) && !lines(hangPid).isEmpty());
            long pid = Long.parseLong(lines(hangPid).get(0).trim());
            // both quick alerts went out while the first rule's script still hangs on its first event
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
            assertThat(lines(fast)).containsExactly("1", "2");
            d.close();
            await().atMost(HANG).until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        }
    }

    @Test
    void onlyTheKindsOfTheRuleAreSent() throws Exception {
        Path out = dir.resolve("kinds.out");
        Path s = script("kinds.sh", "echo \"$HB_EVENT_KIND $HB_EVENT_SUBJECT\" >> " + out);
        try (AlertDispatcher d = dispatcher(rule(s, Set.of(EventKind.NODE_DEAD, EventKind.FENCE_FAILED), HANG,
                Optional.empty()))) {
            d.record(event(1, EventKind.LINK_DOWN, "node2/eth1"));
            d.record(event(2, EventKind.NODE_DEAD, "node2"));
            d.record(event(3, EventKind.GROUP_STARTED, "web"));
            d.record(event(4, EventKind.FENCE_FAILED, "node2"));
            await().atMost(HANG).until(() -> d.stats().sent() == 2);
        }
        assertThat(lines(out)).containsExactly("node-dead node2", "fence-failed node2");
    }

    @Test
    void eventsBeyondTheRateLimitAreCountedAndSummarisedInTheNextAlert() throws Exception {
        Path out = dir.resolve("rate.out");
        Path s = script("rate.sh", "echo \"$HB_EVENT_SEQ $HB_ALERT_HELD $HB_ALERT_HELD_KINDS\" >> " + out);
        try (AlertDispatcher d = dispatcher(rule(s, Set.of(), HANG,
                Optional.of(new AlertSettings.RateLimit(2, Duration.ofMinutes(1)))))) {
            d.record(event(1, EventKind.LINK_DOWN, "node2/eth1"));
            d.record(event(2, EventKind.LINK_DOWN, "node2/eth0"));
            d.record(event(3, EventKind.NODE_DEAD, "node2"));
            d.record(event(4, EventKind.LINK_UP, "node2/eth1"));
            d.record(event(5, EventKind.LINK_UP, "node2/eth0"));
            nanos.addAndGet(Duration.ofSeconds(59).toNanos());
            d.record(event(6, EventKind.LINK_DOWN, "node2/eth0"));
            assertThat(d.stats().limited()).isEqualTo(4);
            nanos.addAndGet(Duration.ofSeconds(1).toNanos()); // the window has moved past the first two
            d.record(event(7, EventKind.NODE_ALIVE, "node2"));
            await().atMost(HANG).until(() -> d.stats().sent() == 3);
        }
        assertThat(lines(out)).containsExactly("1 0 ", "2 0 ", "7 4 node-dead x1, link-down x1, link-up x2");
    }

    @Test
    void aFullQueueDropsCountsAndSaysSoInTheNextAlert() throws Exception {
        Path gate = dir.resolve("gate");
        Path out = dir.resolve("queue.out");
        Path s = script("slow.sh", "while [ ! -e " + gate + " ]; do sleep 0.05; done; echo \"$HB_EVENT_SEQ"
                + " $HB_ALERT_HELD\" >> " + out);
        int n = AlertDispatcher.QUEUE + 10;
        try (AlertDispatcher d = dispatcher(rule(s, Set.of(), HANG, Optional.empty()))) {
            for (int i = 1; i <= n; i++) {
                d.record(event(i, EventKind.LATE_BEAT, "node2"));
            }
            long dropped = d.stats().dropped();
            // one may already be with the script, the queue holds QUEUE more
            assertThat(dropped).isBetween(9L, 10L);
            Files.createFile(gate);
            await().atMost(HANG).until(() -> d.stats().sent() == n - dropped);
            d.record(event(n + 1, EventKind.NODE_DEAD, "node2"));
            await().atMost(HANG).until(() -> d.stats().sent() == n - dropped + 1);
            List<String> got = lines(out);
            assertThat(got.get(got.size() - 1)).isEqualTo((n + 1) + " " + dropped);
        }
    }

    @Test
    void aSubjectOutsideAsciiIsEncodedAsRfc2047Words() {
        assertThat(AlertText.header("[jheartbeat] node1: node-dead node2")).isEqualTo("[jheartbeat] node1: node-dead node2");
        String encoded = AlertText.header("[jheartbeat] node1: group-start-failed web (Fehler: Datenträger voll)");
        assertThat(encoded).startsWith("=?UTF-8?B?").doesNotContain("ä");
        StringBuilder back = new StringBuilder();
        for (String word : encoded.split("\n ")) {
            back.append(new String(java.util.Base64.getDecoder().decode(word.substring(10, word.length() - 2)),
                    java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(back).hasToString("[jheartbeat] node1: group-start-failed web (Fehler: Datenträger voll)");
    }
}
