package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jheartbeat.cli.logging.SyslogStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Logging to syslog in the lab, where a receiver may be missing: node1 has {@code logfacility local0}; its own {@code /dev/log} (a
 * private /dev in node1's mount namespace, {@code lab.sh privdev}) first has no receiver, then a test
 * receiver ({@code lab.sh syslogd}: socat on the unix datagram socket). Without a receiver the daemon
 * still starts, takes its group and says once that syslog does not take records; with one, the
 * daemon's records arrive as glibc writes them, facility local0 (PRI 128 + severity), tagged
 * {@code jheartbeat[PID]}.
 */
@Tag("root")
class SyslogIT {
    /** One record as glibc syslog(3) writes it to /dev/log, local0 (PRI 130..135), then its text. */
    private static String record(String pid) {
        return "<(13[0-5])>[A-Z][a-z]{2} [ 1-3][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} jheartbeat\\[" + pid + "\\]: (.*)";
    }

    @Test
    void node1sRecordsReachItsDevLogAsLocal0AndItBeatsOnWithoutAReceiver() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3"))) {
            Files.writeString(lab.configDir("node1").resolve("ha.cf"), "logfacility local0\n", StandardOpenOption.APPEND);
            Path received = lab.runDir().resolve("node1/syslog.out");
            assertThat(lab.lab("privdev", "node1").code()).isZero();
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();

            // no receiver on node1's /dev/log: the daemon runs and takes its group all the same
            lab.waitUntil(() -> "node1".equals(lab.http()), Figures.HANG_MS, "node1 serving the VIP");
            lab.waitUntil(() -> lab.daemonLog("node1", 200).contains(
                    "WARN: syslog socket /dev/log does not take records (No such file or directory)"),
                    Figures.HANG_MS, "node1 saying once that syslog does not take records");

            assertThat(lab.lab("syslogd", "node1", "start").code()).isZero();
            // our own retry interval (SyslogStream, monotonic clock), not a figure of the machine: once it has
            // passed since the last failed send, the next record is sent
            Thread.sleep((SyslogStream.RETRY_INTERVAL_S + 1) * 1000);
            assertThat(lab.lab("poweroff", "node2").code()).isZero();
            lab.waitUntil(() -> Files.exists(received) && Files.readString(received, StandardCharsets.UTF_8)
                    .contains("WARN: node node2: is dead"), Figures.HANG_MS, "node1's syslog record of node2's death");

            String pid = Files.readString(lab.runDir().resolve("node1/daemon.pid")).trim();
            String text = Files.readString(received, StandardCharsets.UTF_8);
            // socat appends the datagrams as they came: each record starts with <PRI>Mmm
            List<String> records = Arrays.stream(text.split("(?=<[0-9]{1,3}>[A-Z][a-z]{2} )"))
                    .filter(s -> !s.isEmpty()).toList();
            Figures.print("syslog_records", records.size(), "records", "node1's records received on its /dev/log");
            assertThat(records).as(text).allMatch(r -> r.matches(record(pid)));
            assertThat(records).as(text)
                    .anyMatch(r -> r.matches(record(pid).replace("(13[0-5])", "134")
                            .replace("(.*)", "info: syslog socket /dev/log takes records again \\([0-9]+ records lost\\)")))
                    .anyMatch(r -> r.matches(record(pid).replace("(13[0-5])", "132")
                            .replace("(.*)", "WARN: node node2: is dead")));
            assertThat(lab.daemonLog("node1", 400).split("does not take records", -1)).as("reported once").hasSize(2);
            Lab.Result status = lab.lab("status", "node1");
            assertThat(status.code()).as(status.output()).isZero();
            assertThat(status.output()).contains("node2        dead");
        }
    }
}
