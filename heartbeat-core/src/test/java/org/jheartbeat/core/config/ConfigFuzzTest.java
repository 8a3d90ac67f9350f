package org.jheartbeat.core.config;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;

/**
 * Fuzzers of the ha.cf, authkeys and haresources parsers (they read files an admin edits by hand), grown from the example
 * files at the repository root and the forms the parser tests use. Properties: the parser never throws
 * (its documented contract: every problem is a {@link ConfigDiagnostic}); every diagnostic names the
 * file it was given and a line inside the text (0 for the file as a whole), prints as {@code
 * file:line: message}, and its message is one line of printable text. Cases per property: {@code
 * -Djhb.fuzz.tries} (docs/fuzzing.md).
 */
class ConfigFuzzTest {
    static final Path HA_CF = Path.of("/etc/ha.d/ha.cf");
    static final Path AUTHKEYS = Path.of("/etc/ha.d/authkeys");
    static final Path HARESOURCES = Path.of("/etc/ha.d/haresources");
    static final List<NodeName> NODES = List.of(NodeName.of("node1"), NodeName.of("node2"));

    static final List<byte[]> HA_CF_SEEDS = seeds("ha.cf.example",
            "keepalive 500ms\ndeadtime 3\nwarntime 0.5\ninitdead 10\nnode node1 node2\nucast eth1 198.18.1.2\n",
            "mcast eth1 239.0.0.1 694 1 0\nudpport 700\nbcast eth1\nauto_failback legacy\n",
            "serial /dev/null\nbaud 9600\nnode a\nnode b\nping 198.18.0.254\nping_group g 198.18.0.1 198.18.0.2\n"
                    + "respawn hacluster /usr/lib/heartbeat/ipfail\ndeadping 2500ms\n",
            "stonith_host node1 apcsmart /dev/ttyS1 node2\nstonith_host * external/ssh node1 node2\n"
                    + "logfacility local0\nlogfile /var/log/ha-log\ndebugfile /var/log/ha-debug\ncrm no\n");
    static final List<byte[]> AUTHKEYS_SEEDS = seeds("authkeys.example", "auth 1\n1 sha1 testsecret-0123456\n",
            "auth 2\n1 md5 old\n2 sha1 new # rollover\n", "auth 3\n3 crc\n", "# comment\n\nauth\t15\n15 sha1 \\x00\n");
    static final List<byte[]> HARESOURCES_SEEDS = seeds("haresources.example",
            "node1 198.18.0.100/24/eth0 labweb\n", "node1 a \\\n  b\nnode2 c # \\\nnode1 d\n",
            "node1 IPaddr2::198.18.0.100/24/eth0:web Filesystem::/dev/sdb1::/srv::ext4 lsb:apache2\n",
            "node2 ocf:heartbeat:IPaddr2 ip=198.18.0.5 cidr_netmask=24 MailTo::root::subject\n"
                    + "node1 10.0.0.5 web\nnode2 systemd:nginx timeout=20s\n");

    private static List<byte[]> seeds(String example, String... texts) {
        List<byte[]> out = new ArrayList<>();
        out.add(Mutations.repositoryFile(example));
        for (String t : texts) {
            out.add(t.getBytes(ISO_8859_1));
        }
        return List.copyOf(out);
    }

    @Provide
    Arbitrary<Mutant> haCf() {
        return Mutations.of(HA_CF_SEEDS);
    }

    @Provide
    Arbitrary<Mutant> authkeys() {
        return Mutations.of(AUTHKEYS_SEEDS);
    }

    @Provide
    Arbitrary<Mutant> haresources() {
        return Mutations.of(HARESOURCES_SEEDS);
    }

    @Property
    void haCfParserNeverThrowsAndNamesFileAndLine(@ForAll("haCf") Mutant m) {
        HaCfParser.Result r = HaCfParser.parse(HA_CF, m.text());
        assertThat(r.haCf()).isNotNull();
        checkDiagnostics(r.diagnostics(), HA_CF, m);
    }

    @Property
    void authkeysParserNeverThrowsAndNamesFileAndLine(@ForAll("authkeys") Mutant m) {
        AuthKeysParser.Result r = AuthKeysParser.parse(AUTHKEYS, m.text());
        checkDiagnostics(r.diagnostics(), AUTHKEYS, m);
        assertThat(r.authKeys().isPresent() || r.hasErrors()).as("no keys and no error: %s", m).isTrue();
    }

    @Property
    void haresourcesParserNeverThrowsAndNamesFileAndLine(@ForAll("haresources") Mutant m) {
        HaresourcesParser.Result r = HaresourcesParser.parse(HARESOURCES, m.text(), NODES);
        checkDiagnostics(r.diagnostics(), HARESOURCES, m);
    }

    static void checkDiagnostics(List<ConfigDiagnostic> diagnostics, Path file, Mutant m) {
        int lines = ConfigText.lines(file, m.text(), new ArrayList<>()).size();
        for (ConfigDiagnostic d : diagnostics) {
            assertThat(d.file()).as("%s: %s", d, m).isEqualTo(file);
            assertThat(d.line()).as("%s: %s", d, m).isBetween(0, Math.max(1, lines));
            assertThat(d.format()).as("%s", m).startsWith(file + ":" + d.line() + ": ");
            assertThat(d.message()).as("%s", m).isNotBlank().doesNotContain("\n").doesNotContain("\r");
        }
    }
}
