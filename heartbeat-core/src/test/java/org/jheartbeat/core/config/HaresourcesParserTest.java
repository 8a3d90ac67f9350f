package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HaresourcesParserTest {
    private static final Path FILE = Path.of("/etc/ha.d/haresources");
    private static final List<NodeName> NODES = List.of(NodeName.of("node1"), NodeName.of("node2"));

    private static HaresourcesParser.Result parse(String text) {
        return HaresourcesParser.parse(FILE, text, NODES);
    }

    private static ResourceSpec spec(String agent, List<String> args, String token) {
        return new ResourceSpec(agent, args, token);
    }

    @Test
    void readsTheLabLine() {
        HaresourcesParser.Result r = parse("node1 198.18.0.100/24/eth0 labweb\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.groups()).containsExactly(new ResourceGroupDecl(NodeName.of("node1"), List.of(
                spec("IPaddr", List.of("198.18.0.100/24/eth0"), "198.18.0.100/24/eth0"),
                spec("labweb", List.of(), "labweb")), 1));
        assertThat(r.groups().get(0).key()).isEqualTo("198.18.0.100/24/eth0");
    }

    @Test
    void commentsContinuationsAndBlankRuns() {
        String text = """
                # resource groups
                NODE1   10.0.0.5 \\
                \tFilesystem::/dev/drbd0::/srv::ext4 \\# the comment goes, the continuation stays
                    apache   # the web server

                # a comment-only line ends nothing and starts nothing
                node2 IPaddr2::10.0.0.6/24/eth0/10.0.0.255 MailTo::root@example.org::db
                """;
        HaresourcesParser.Result r = parse(text);
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.groups()).containsExactly(
                new ResourceGroupDecl(NodeName.of("node1"), List.of(
                        spec("IPaddr", List.of("10.0.0.5"), "10.0.0.5"),
                        spec("Filesystem", List.of("/dev/drbd0", "/srv", "ext4"), "Filesystem::/dev/drbd0::/srv::ext4"),
                        spec("apache", List.of(), "apache")), 2),
                new ResourceGroupDecl(NodeName.of("node2"), List.of(
                        spec("IPaddr2", List.of("10.0.0.6/24/eth0/10.0.0.255"), "IPaddr2::10.0.0.6/24/eth0/10.0.0.255"),
                        spec("MailTo", List.of("root@example.org", "db"), "MailTo::root@example.org::db")), 7));
    }

    @Test
    void commentedOutContinuationKeepsTheGroupApart() {
        HaresourcesParser.Result r = parse("node1 a \\\n  b\nnode2 c # \\\nnode1 d\n");
        assertThat(r.groups()).extracting(ResourceGroupDecl::key, ResourceGroupDecl::line)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", 1), org.assertj.core.groups.Tuple.tuple("c", 3),
                        org.assertj.core.groups.Tuple.tuple("d", 4));
        assertThat(r.groups().get(0).resources()).extracting(ResourceSpec::token).containsExactly("a", "b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.5", "10.0.0.5/24", "10.0.0.5/32/eth0", "10.0.0.5/1/eth0:1/10.0.0.255",
            "10.0.0.5/24/10.0.0.255", "IPaddr::10.0.0.5/24/eth0", "IPaddr2::10.0.0.5/16", "10.0.0.5//eth0"})
    void goodAddresses(String token) {
        assertThat(parse("node1 " + token + "\n").diagnostics()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "198.18.0.300             | octet 300 > 255",
            "198.18.0.1/33            | prefix [33] must be 1..32",
            "198.18.0.1/0             | prefix [0] must be 1..32",
            "198.18.0.1/x/eth0        | bad prefix [x]",
            "1.2.3.4.5                | not a dotted-quad IPv4 address",
            "1.2.3.4/24/eth0/1.2.3.999 | bad broadcast: octet 999 > 255",
            "1.2.3.4/24/1.2.3.255/eth0 | nothing may follow the broadcast address 1.2.3.255",
            "IPaddr::256.1.1.1        | octet 256 > 255",
            "IPaddr2::10.0.0.1/40/eth0 | prefix [40]",
            "IPaddr                   | IPaddr needs an address",
    })
    void badAddresses(String token, String why) {
        assertThat(parse("node1 www " + token + "\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(1);
            assertThat(d.message()).startsWith("bad IP address [" + token + "]").contains(why);
        });
    }

    @Test
    void aTokenStartingWithADigitButNotDottedQuadIsAScript() {
        assertThat(parse("node1 3ware\n").groups().get(0).resources())
                .containsExactly(spec("3ware", List.of(), "3ware"));
    }

    @Test
    void preferredNodeMustBeAnHaCfNode() {
        HaresourcesParser.Result r = parse("node1 a\nnode3 b\n");
        assertThat(r.groups()).hasSize(1);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).isEqualTo("Bad nodename in haresources [node3]: it is not a 'node' in ha.cf"
                    + " (nodes: node1, node2)");
        });
    }

    @Test
    void nodeWithoutResourcesIsAnError() {
        assertThat(parse("node1\n").diagnostics()).singleElement().satisfies(d ->
                assertThat(d.message()).startsWith("resource group for node [node1] has no resources"));
    }

    @Test
    void emptyScriptNameIsAnError() {
        assertThat(parse("node1 ::arg\n").diagnostics()).singleElement().satisfies(d ->
                assertThat(d.message()).startsWith("invalid resource [::arg]"));
    }

    @Test
    void groupKeysAreUnique() {
        HaresourcesParser.Result r = parse("node1 10.0.0.5 web\nnode2 10.0.0.5 db\n");
        assertThat(r.groups()).hasSize(1);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).startsWith("duplicate group key [10.0.0.5]: it is already in the group on line 1");
        });
    }

    @Test
    void aResourceMayBeInOneGroupOnly() {
        HaresourcesParser.Result r = parse("node1 10.0.0.5 web\nnode2 10.0.0.6 web\n");
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).startsWith("duplicate resource [web]: it is already in the group on line 1");
        });
    }

    @Test
    void nodesAreNotCheckedWhenHaCfHasNone() {
        assertThat(HaresourcesParser.parse(FILE, "nodex a\n", List.of()).diagnostics()).isEmpty();
    }

    @Test
    void crlfIsAWarningAndContinuationsStillJoin() {
        HaresourcesParser.Result r = parse("node1 a \\\r\n b\r\n");
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isFalse();
            assertThat(d.message()).contains("CRLF");
        });
        assertThat(r.groups()).singleElement().satisfies(g ->
                assertThat(g.resources()).extracting(ResourceSpec::token).containsExactly("a", "b"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"node1 a \\ \n  b\n", "node1 a \\\t# the web server\n  b\n"})
    void aBackslashFollowedByABlankDoesNotContinueAndTheHintNamesIt(String text) {
        HaresourcesParser.Result r = parse(text);
        assertThat(r.groups()).as("the first line is a group of its own").singleElement()
                .satisfies(g -> assertThat(g.resources()).extracting(ResourceSpec::token).containsExactly("a"));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).isEqualTo("Bad nodename in haresources [b]: it is not a 'node' in ha.cf (nodes:"
                    + " node1, node2); line 1 ends with '\\' followed by a blank, which does not continue the line"
                    + " (Heartbeat continues only when '\\' is the last character before the newline or a '#'):"
                    + " remove the trailing blank after the '\\' on line 1");
        });
    }

    @Test
    void aBadNodenameWithoutABrokenContinuationHasNoHint() {
        assertThat(parse("node1 a\nnodeX b\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).doesNotContain("backslash").doesNotContain("'\\'"));
    }

    @Test
    void dottedNetmaskAndLabelForms() {
        assertThat(parse("node1 198.18.0.100/255.255.255.128/eth0\n").diagnostics()).isEmpty();
        assertThat(parse("node1 IPaddr2::198.18.0.100/24/eth0:web\n").diagnostics()).isEmpty();
        assertThat(parse("node1 IPaddr2::198.18.0.100/255.255.0.255/eth0\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).contains("netmask 255.255.0.255 is not contiguous"));
        assertThat(parse("node1 IPaddr2::198.18.0.100/24/eth0:web12345678\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).contains("label [eth0:web12345678] is 16 characters; the"
                        + " kernel allows at most 15"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "IPaddr::198.18.0.100::eth0  | write the ip/prefix/iface form: IPaddr::198.18.0.100/PREFIX/eth0",
            "IPaddr2::198.18.0.100::24   | write the ip/prefix/iface form: IPaddr2::198.18.0.100/24",
    })
    void twoColonArgumentsAreRefusedWithTheSlashFormAsHint(String token, String hint) {
        assertThat(parse("node1 " + token + "\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(1);
            assertThat(d.message()).startsWith("bad IP address [" + token + "]: ").contains("takes one argument")
                    .endsWith(hint);
        });
    }

    /** An admin who read "::op_timeout=90s per resource" and put it on an address (tryout). */
    @Test
    void anOptionOnAnAddressIsRefusedWithoutTheSlashFormHint() {
        assertThat(parse("node1 IPaddr::198.18.0.101::op_timeout=90s\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(1);
            assertThat(d.message()).isEqualTo("bad IP address [IPaddr::198.18.0.101::op_timeout=90s]: IPaddr takes one"
                    + " argument, the address, and no name=value options such as [op_timeout=90s] (op_ timeouts and"
                    + " monitoring are for lsb:, ocf: and systemd: resources); write IPaddr::198.18.0.101, or"
                    + " ocf:heartbeat:IPaddr2::ip=ADDRESS::op_timeout=90s for an address with that option");
        });
    }

    @Test
    void leadingZerosAreRefusedWithTheDecimalSpelling() {
        assertThat(parse("node1 010.0.0.5\n").diagnostics()).singleElement().satisfies(d ->
                assertThat(d.message()).contains("leading zero, which inet_aton reads as octal; write 10.0.0.5"));
    }
}
