package org.jheartbeat.sync.config;

import static java.nio.charset.StandardCharsets.UTF_8;
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
 * Fuzzer of the {@code sync.yaml} parser (an admin edits the file by hand), grown from the packaged example and the
 * parser tests' files. The daemon reads the file as UTF-8, so the mutated bytes are decoded as UTF-8
 * (malformed sequences become U+FFFD). Properties: nothing but {@link SyncConfigException} escapes, and
 * its message is one line {@code sync.yaml:LINE: ...} per problem, each with a line inside the text (or one past its end, where
 * YAML reports an unexpected end). Cases per property: {@code -Djhb.fuzz.tries} (docs/fuzzing.md).
 */
class SyncConfigFuzzTest {
    static final Path SRC = Path.of("/etc/ha.d/sync.yaml");
    static final List<byte[]> SEEDS = seeds();

    private static List<byte[]> seeds() {
        List<byte[]> out = new ArrayList<>();
        out.add(Mutations.repositoryFile("packaging/src/deb/examples/sync.yaml"));
        out.add(SyncConfigParserTest.GOOD.getBytes(UTF_8));
        out.add("nodes: {node1: 198.18.1.1, node2: 198.18.1.2}\njobs:\n  web:\n    group: g\n    paths: [/a]\n"
                .getBytes(UTF_8));
        out.add("jobs:\n  web:\n    group: g\n    paths: [/a]\n    target: /mnt/r\n  db:\n    group: h\n"
                .concat("    paths: [/b, /a/sub]\n    target: /mnt/r\n    schedule: '*/5 * * * *'\n").getBytes(UTF_8));
        out.add("backups:\n  d:\n    uuid: 1234-ABCD\n    mount_point: /mnt/d\n    paths: [/srv]\n    keep: 3\n"
                .concat("    poll: 5s\n    fsck: false\nstate_dir: /var/lib/jhb/sync\nssh: \"ssh -i '/k'\"\n").getBytes(UTF_8));
        return List.copyOf(out);
    }

    @Provide
    Arbitrary<Mutant> files() {
        return Mutations.of(SEEDS);
    }

    @Property
    void onlySyncConfigExceptionEscapesAndItNamesFileAndLine(@ForAll("files") Mutant m) {
        String text = new String(m.bytes(), UTF_8);
        try {
            SyncConfigParser.parse(text, SRC);
        } catch (SyncConfigException e) {
            // the lines an editor shows (LF): a lone CR, NEL, LS or PS, which YAML takes for a line break,
            // is refused at its editor line before YAML counts (docs/fuzzing.md)
            int lines = text.split("\n", -1).length;
            assertThat(e.diagnostics()).as("%s", m).isNotEmpty();
            String[] messageLines = e.getMessage().split("\n", -1);
            assertThat(messageLines).as("%s", m).hasSameSizeAs(e.diagnostics());
            for (int i = 0; i < messageLines.length; i++) {
                int line = e.diagnostics().get(i).line();
                assertThat(line).as("%s: %s", e.getMessage(), m).isBetween(1, lines + 1);
                assertThat(messageLines[i]).as("%s", m).startsWith(SRC + ":" + line + ": ");
            }
        }
    }
}
