package org.jheartbeat.resources.names;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.junit.jupiter.api.Test;

/** Command text and the reading of nsupdate's and dig's output (captured from BIND 9.18 in the lab). */
class NameCommandsTest {
    private static final HostnameSpec.Dns DNS = new HostnameSpec.Dns("node1.townhall.lan.", "198.18.0.10", "198.18.0.1",
            Optional.of(Path.of("/etc/ha.d/ddns.key")), Optional.empty(), 60);

    @Test
    void updateReplacesEveryARecordInOneMessage() {
        assertThat(NameCommands.updateScript(DNS, "198.18.0.100")).isEqualTo("""
                server 198.18.0.10
                update delete node1.townhall.lan. A
                update add node1.townhall.lan. 60 A 198.18.0.100
                send
                """);
        HostnameSpec.Dns zoned = new HostnameSpec.Dns("node1.townhall.lan.", "198.18.0.10", "198.18.0.1",
                Optional.empty(), Optional.of("townhall.lan."), 30);
        assertThat(NameCommands.updateScript(zoned, "198.18.0.1")).contains("server 198.18.0.10\nzone townhall.lan.\n")
                .contains("update add node1.townhall.lan. 30 A 198.18.0.1\n");
    }

    @Test
    void argv() {
        NameCommands c = NameCommands.DEFAULT;
        assertThat(c.nsupdate(DNS.keyFile(), Path.of("/run/jheartbeat/u.txt")))
                .containsExactly("nsupdate", "-k", "/etc/ha.d/ddns.key", "-t", "10", "/run/jheartbeat/u.txt");
        assertThat(c.nsupdate(Optional.empty(), Path.of("/tmp/u"))).containsExactly("nsupdate", "-t", "10", "/tmp/u");
        assertThat(c.dig(DNS)).containsExactly("dig", "+short", "+norecurse", "+time=2", "+tries=2", "@198.18.0.10",
                "node1.townhall.lan.", "A");
        assertThat(c.nmbd(Path.of("/run/jheartbeat/nmbd-NODE1/smb.conf")))
                .containsExactly("nmbd", "-D", "-s", "/run/jheartbeat/nmbd-NODE1/smb.conf");
        assertThat(c.showHostname()).containsExactly("hostname");
        assertThat(c.setHostname("node1")).containsExactly("hostname", "node1");
    }

    @Test
    void nmbdInstanceIsBoundToTheAddressAndKeepsItsStateToItself() {
        String conf = NameCommands.nmbdConf("NODE1", "198.18.0.100", Path.of("/run/jheartbeat/nmbd-NODE1"));
        assertThat(conf).contains("netbios name = NODE1\n", "interfaces = 198.18.0.100\n",
                "bind interfaces only = yes\n", "local master = no\n", "wins support = no\n",
                "pid directory = /run/jheartbeat/nmbd-NODE1\n", "lock directory = /run/jheartbeat/nmbd-NODE1\n",
                "state directory = /run/jheartbeat/nmbd-NODE1\n", "log file = /run/jheartbeat/nmbd-NODE1/log.nmbd\n");
    }

    @Test
    void readsTheServersAnswer() {
        NsupdateOutcome refused = NsupdateOutcome.of(new ProcessResult(2, "", "update failed: REFUSED\n", false));
        assertThat(refused.ok()).isFalse();
        assertThat(refused.rcode()).contains("REFUSED");
        assertThat(refused.detail()).isEqualTo("update failed: REFUSED");
        assertThat(NsupdateOutcome.of(new ProcessResult(2, "", "update failed: NOTAUTH\n", false)).rcode())
                .contains("NOTAUTH");
        NsupdateOutcome unreachable = NsupdateOutcome.of(new ProcessResult(1, "",
                "; Communication with 198.18.0.10#53 failed: timed out\ncould not reach any name server\n", false));
        assertThat(unreachable.rcode()).isEmpty();
        assertThat(unreachable.detail())
                .isEqualTo("; Communication with 198.18.0.10#53 failed: timed out; could not reach any name server");
        assertThat(NsupdateOutcome.of(new ProcessResult(-1, "", "", true)).detail()).isEqualTo("timed out");
        assertThat(NsupdateOutcome.of(new ProcessResult(1, "", "", false)).detail()).isEqualTo("exit code 1, no message");
        assertThat(NsupdateOutcome.of(ProcessResult.exited(0, "")).ok()).isTrue();
    }

    @Test
    void readsDigShortOutput() {
        assertThat(DigAnswer.addresses("198.18.0.100\n")).containsExactly("198.18.0.100");
        assertThat(DigAnswer.addresses("alias.townhall.lan.\n198.18.0.1\n198.18.0.2\n"))
                .containsExactly("198.18.0.1", "198.18.0.2");
        assertThat(DigAnswer.addresses("")).isEmpty();
        assertThat(DigAnswer.addresses(";; communications error to 198.18.0.10#53: timed out\n")).isEmpty();
    }
}
