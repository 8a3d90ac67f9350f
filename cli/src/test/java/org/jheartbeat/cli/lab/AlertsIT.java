package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jheartbeat.cli.alert.EximServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Alerts in the lab: both nodes' jheartbeat.yaml send node-dead by mail to a real SMTP server (Exim on the
 * client, 198.18.0.10:2525) and to a script, and every event to an SMTP server that accepts connections and
 * never answers (2526). node1 loses power: node2 takes over while its alert mail to the silent server is still
 * stuck, exactly one node-dead mail reaches Exim, and the script saw the event in its environment. The group
 * holds {@code MailTo::ops@example.com::LabWeb}, the built-in MailTo: its start on node1, then on node2, mails
 * through sendmail (Exim again, the same mbox).
 */
@Tag("root")
class AlertsIT {
    private static final String SMTP = "198.18.0.10";

    @Test
    void aFailoverMailsOnceRunsTheScriptAndIsNotHeldUpByASilentSmtpServer() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(EximServer.available(), "needs exim4 (exim4-daemon-light)");
        Path work = Files.createTempDirectory(Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize()
                .resolve("cli/target"), "alerts-it");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path eximDir = work.resolve("exim");
        Files.createDirectories(eximDir);
        // MailTo's sendmail: Exim with the test's configuration, delivering at once into the same mbox
        Path sendmail = work.resolve("sendmail");
        Files.writeString(sendmail, "#!/bin/sh\nexec /usr/sbin/exim4 -C " + eximDir.resolve("exim.conf")
                + " -odi \"$@\"\n");
        Files.setPosixFilePermissions(sendmail, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path script = work.resolve("alert.sh");
        Files.writeString(script, "#!/bin/sh\nf=" + work + "/env-$(hostname)\nenv | grep '^HB_' | sort > $f.tmp"
                + " && mv $f.tmp $f\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        String yaml = "alerts:\n"
                + "  - mail: {to: [ops@example.com], smtp: '" + SMTP + ":2525'}\n"
                + "    kinds: [node-dead]\n"
                + "  - script: " + script + "\n"
                + "    kinds: [node-dead]\n"
                + "  - mail: {to: [nobody@example.com], smtp: '" + SMTP + ":2526'}\n"
                + "    timeout: 10min\n";
        Map<String, String> env = Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_PRIVATE_RUN", "1",
                "LAB_HARESOURCES", "node1 " + FailoverIT.VIP + "/24/eth0 labweb MailTo::ops@example.com::LabWeb",
                "HB_JAVA_OPTS", "-Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djhb.sendmail=" + sendmail);
        Process silent = null;
        try (Lab lab = new Lab(env)) {
            for (String node : List.of("node1", "node2")) {
                Files.writeString(lab.configDir(node).resolve("jheartbeat.yaml"), yaml);
            }
            try (EximServer exim = new EximServer(eximDir, lab.clientNamespace(), SMTP, 2525)) {
                // accepts into its backlog, never says 220: every alert mail to it waits out its 10 min timeout
                silent = new ProcessBuilder("ip", "netns", "exec", lab.clientNamespace(), "socat",
                        "TCP-LISTEN:2526,bind=" + SMTP + ",reuseaddr,fork", "SYSTEM:sleep 900").start();
                lab.waitUntil(() -> banner(lab, 2525).startsWith("220"), Figures.HANG_MS, "Exim on the client");
                assertThat(lab.lab("start", "node1").code()).isZero();
                assertThat(lab.lab("start", "node2").code()).isZero();
                assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as("node1 serves\n%s",
                        lab.daemonLog("node1", 40)).isNotNegative();
                lab.waitUntil(() -> exim.messages().contains("LabWeb Takeover in progress at")
                        && exim.messages().contains(" on node1"), Figures.HANG_MS, "MailTo's mail from node1\n"
                        + exim.log());
                lab.waitUntil(() -> !stuck(lab).isEmpty(), Figures.HANG_MS, "an alert mail waiting on the silent"
                        + " server");

                assertThat(lab.lab("poweroff", "node1").code()).isZero();
                long failoverMs = FailoverIT.waitFor(lab, "node2", Figures.HANG_MS);
                Figures.print("alerts_failover_ms", failoverMs, "ms", "node2 serves the VIP after node1 lost"
                        + " power, with an alert SMTP server that never answers");
                assertThat(failoverMs).as("node2 takes over\n%s", lab.daemonLog("node2", 40)).isNotNegative();
                // the takeover happened while node2's alert mail to the silent server still waited for a greeting
                assertThat(stuck(lab)).as("connections to the silent SMTP server").contains("198.18.0.2:");

                lab.waitUntil(() -> count(exim.messages(), "Subject: [jheartbeat] node2: node-dead node1") == 1, Figures.HANG_MS,
                        "node2's node-dead mail\n" + exim.log());
                lab.waitUntil(() -> exim.messages().contains(" on node2"), Figures.HANG_MS, "MailTo's mail from"
                        + " node2");
                Path envFile = work.resolve("env-node2");
                lab.waitUntil(() -> Files.exists(envFile), Figures.HANG_MS, "the alert script on node2");
                Thread.sleep(2000); // a second node-dead mail, if one were coming, has had time to arrive
                String box = exim.messages();
                assertThat(count(box, "Subject: [jheartbeat] node2: node-dead node1")).as(box).isEqualTo(1);
                assertThat(box).contains("From: root@node2", "To: ops@example.com", "kind:     node-dead");
                Map<String, String> vars = Files.readAllLines(envFile, StandardCharsets.UTF_8).stream()
                        .map(l -> l.split("=", 2)).collect(Collectors.toMap(a -> a[0], a -> a.length > 1 ? a[1] : ""));
                assertThat(vars).containsEntry("HB_EVENT_KIND", "node-dead").containsEntry("HB_EVENT_NODE", "node2")
                        .containsEntry("HB_EVENT_SUBJECT", "node1").containsKey("HB_EVENT_CAUSE")
                        .containsEntry("HB_ALERT_HELD", "0");
                assertThat(vars.get("HB_EVENT_CAUSE")).startsWith("no beat for ");
                assertThat(Instant.parse(vars.get("HB_EVENT_TIME")).toEpochMilli())
                        .isEqualTo(Long.parseLong(vars.get("HB_EVENT_MS")));
                assertThat(Long.parseLong(vars.get("HB_EVENT_DURATION_MS"))).isGreaterThanOrEqualTo(3000);
            }
        } finally {
            if (silent != null) {
                silent.descendants().forEach(ProcessHandle::destroyForcibly);
                silent.destroyForcibly();
            }
        }
    }

    /** The first bytes the client namespace gets from {@code SMTP:port}. */
    private static String banner(Lab lab, int port) throws Exception {
        return lab.run(List.of("ip", "netns", "exec", lab.clientNamespace(), "timeout", "5", "bash", "-c",
                "exec 3<>/dev/tcp/" + SMTP + "/" + port + " && head -c 3 <&3"), 10).output();
    }

    /** The established connections to the silent server, as {@code ss} lists them in the client namespace. */
    private static String stuck(Lab lab) throws Exception {
        return lab.run(List.of("ip", "netns", "exec", lab.clientNamespace(), "ss", "-Htn", "state", "established",
                "( sport = :2526 )"), 10).output().trim();
    }

    private static long count(String text, String what) {
        return Arrays.stream(text.split("\n")).filter(l -> l.contains(what)).count();
    }
}
