package org.jheartbeat.resources.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.AgentResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent against a fake machine: a UTS host name, a DNS server holding A records (that can refuse
 * updates), and an {@code nmbd} that is a real long-running process whose command line names the
 * instance's smb.conf (the agent finds it by pid file and /proc, as the real one).
 */
class HostnameAgentTest {
    @TempDir
    Path dir;
    private String hostname = "node2";
    private final Map<String, String> records = new HashMap<>(Map.of("node1.townhall.lan.", "198.18.0.1"));
    private String refuse = "";
    private final List<String> journal = new ArrayList<>();
    private final List<Process> nmbds = new ArrayList<>();

    private final ProcessRunner machine = this::run;

    private ProcessResult run(ProcessSpec spec) throws IOException {
        List<String> argv = spec.argv();
        journal.add(String.join(" ", argv));
        switch (argv.get(0)) {
            case "hostname" -> {
                if (argv.size() == 2) {
                    hostname = argv.get(1);
                }
                return ProcessResult.exited(0, hostname + "\n");
            }
            case "dig" -> {
                String a = records.get(argv.get(6));
                return ProcessResult.exited(0, a == null ? "" : a + "\n");
            }
            case "nsupdate" -> {
                String script = Files.readString(Path.of(argv.get(argv.size() - 1)));
                journal.add(script);
                if (!refuse.isEmpty()) {
                    return new ProcessResult(2, "", "update failed: " + refuse + "\n", false);
                }
                for (String line : script.lines().toList()) {
                    String[] w = line.split(" ");
                    if (w[0].equals("update") && w[1].equals("add")) {
                        records.put(w[2], w[5]);
                    }
                }
                return ProcessResult.exited(0, "");
            }
            case "nmbd" -> {
                Path conf = Path.of(argv.get(3));
                Process p = new ProcessBuilder("sh", "-c", "while :; do sleep 1; done", "nmbd", conf.toString())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                nmbds.add(p);
                Files.writeString(conf.resolveSibling("nmbd.pid"), p.pid() + "\n", StandardCharsets.US_ASCII);
                return ProcessResult.exited(0, "");
            }
            default -> throw new IOException("no such program " + argv.get(0));
        }
    }

    @AfterEach
    void killFakeNmbds() {
        nmbds.forEach(Process::destroyForcibly);
    }

    private HostnameAgent agent(String token) {
        List<String> parts = List.of(token.split("::"));
        // the real sleeper: stop waits for a real process to exit and be reaped, which takes real time on a
        // busy machine (a no-op sleeper spent the 5 s budget in microseconds and failed the stop)
        return new HostnameAgent(HostnameSpec.parse(parts.subList(1, parts.size()), token), token, machine,
                NameCommands.DEFAULT, dir.resolve("run"), new TakenHostNames(dir.resolve("run/hostname")),
                Sleeper.system());
    }

    private static final String ALL = "Hostname::node1::address=198.18.0.100::netbios=yes::dns=node1.townhall.lan"
            + "::dns_server=198.18.0.10::dns_home=198.18.0.1::hostname=yes";

    @Test
    void takesEveryNameOverAndGivesItBack() throws IOException, InterruptedException {
        HostnameAgent a = agent(ALL);
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        AgentResult started = a.start();
        assertThat(started.isOk()).as(started.toString()).isTrue();
        assertThat(records).containsEntry("node1.townhall.lan.", "198.18.0.100");
        assertThat(hostname).isEqualTo("node1");
        assertThat(Files.readString(dir.resolve("run/hostname/node1"))).isEqualTo("own=node2\n");
        assertThat(Files.readString(dir.resolve("run/nmbd-NODE1/smb.conf"))).contains("netbios name = NODE1");
        AgentResult status = a.status();
        assertThat(status.outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(status.message()).contains("NetBIOS NODE1 (nmbd ", "DNS node1.townhall.lan. A [198.18.0.100]",
                "host name");

        journal.clear();
        assertThat(a.start().isOk()).as("a second start changes nothing").isTrue();
        assertThat(journal).noneMatch(l -> l.startsWith("nsupdate") || l.startsWith("nmbd") || l.equals("hostname node1"));

        AgentResult stopped = a.stop();
        assertThat(stopped.isOk()).as(stopped.toString()).isTrue();
        assertThat(hostname).isEqualTo("node2");
        assertThat(records).containsEntry("node1.townhall.lan.", "198.18.0.1");
        assertThat(dir.resolve("run/hostname/node1")).doesNotExist();
        for (Process p : nmbds) { // the JVM reaps it a moment after it exits: wait, do not poll isAlive once
            assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).as("nmbd exited after stop").isTrue();
        }
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        journal.clear();
        assertThat(a.stop().isOk()).as("a second stop is a success").isTrue();
        assertThat(journal).noneMatch(l -> l.startsWith("nsupdate") || l.startsWith("hostname node"));
    }

    @Test
    void aRefusedUpdateFailsTheStartWithTheServersWordsBeforeAnythingElseIsTaken() {
        refuse = "REFUSED";
        AgentResult r = agent(ALL).start();
        assertThat(r.outcome()).isEqualTo(AgentOutcome.FAILED);
        assertThat(r.message()).isEqualTo("Hostname::node1::address=198.18.0.100::netbios=yes::dns=node1.townhall.lan"
                + "::dns_server=198.18.0.10::dns_home=198.18.0.1::hostname=yes: DNS update of node1.townhall.lan. to A"
                + " 198.18.0.100 at 198.18.0.10 failed: the server answered REFUSED (update failed: REFUSED)");
        assertThat(hostname).isEqualTo("node2");
        assertThat(nmbds).isEmpty();
        assertThat(records).containsEntry("node1.townhall.lan.", "198.18.0.1");
    }

    @Test
    void aRefusedUpdateOnStopIsAWarningNotAStopFailure() {
        HostnameAgent a = agent(ALL);
        assertThat(a.start().isOk()).isTrue();
        refuse = "NOTAUTH";
        assertThat(a.stop().isOk()).isTrue();
        assertThat(hostname).isEqualTo("node2");
    }

    @Test
    void onItsOwnNodeItOnlyRunsTheNetbiosNameAndPutsTheRecordHome() {
        hostname = "node1";
        records.put("node1.townhall.lan.", "198.18.0.100"); // left by the peer that died holding it
        HostnameAgent a = agent(ALL);
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        AgentResult r = a.start();
        assertThat(r.isOk()).as(r.toString()).isTrue();
        assertThat(r.message()).startsWith("node1 is this node's own name");
        assertThat(records).containsEntry("node1.townhall.lan.", "198.18.0.1");
        assertThat(dir.resolve("run/hostname/node1")).doesNotExist();
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        journal.clear();
        assertThat(a.stop().isOk()).isTrue();
        assertThat(journal).noneMatch(l -> l.startsWith("nsupdate") || l.startsWith("hostname "));
        assertThat(hostname).isEqualTo("node1");
    }

    @Test
    void aTakenHostNameIsNotMistakenForHome() {
        HostnameAgent a = agent("Hostname::node1::hostname=yes");
        assertThat(a.start().isOk()).isTrue();
        assertThat(hostname).isEqualTo("node1");
        // the daemon restarted meanwhile: a new agent sees the record, not just the name
        HostnameAgent again = agent("Hostname::node1::hostname=yes");
        assertThat(again.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(again.stop().isOk()).isTrue();
        assertThat(hostname).isEqualTo("node2");
    }

    @Test
    void statusFailsOnlyWhenNothingCanBeAsked() {
        HostnameAgent a = new HostnameAgent(HostnameSpec.parse(List.of("node1", "address=198.18.0.100",
                "dns=node1.townhall.lan", "dns_server=198.18.0.10", "dns_home=198.18.0.1"), "t"), "t",
                spec -> spec.argv().get(0).equals("dig") ? new ProcessResult(9, ";; connection timed out", "", false)
                        : ProcessResult.exited(0, "node2\n"),
                NameCommands.DEFAULT, dir.resolve("run"), new TakenHostNames(dir.resolve("run/hostname")), p -> { });
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.FAILED);
    }
}
