package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code hb resources ...} on a realistic haresources, through picocli's execute(). */
class ResourcesCommandTest {
    /** Header comments, tabs, a continued group with comments, a trailing comment; 13 lines, groups on 5, 10, 13. */
    static final String REAL = """
            # haresources for the lab cluster
            #\tnode\tresources (started left to right)

            # the web tier
            node1\t198.18.0.100/24/eth0 \\
            \tFilesystem::/dev/drbd0::/srv::ext4 \\
            \tlabweb   # serves /srv

            # database, preferred on node2
            node2 IPaddr2::198.18.0.101/24/eth0 labdb::main labdb::replica labdb::a labdb::b labdb::c \\
            # a comment line ends the continued line

            node1 MailTo::root@example.org   # mail when it moves
            """;

    @TempDir
    Path dir;

    private static HbRun hb(String... args) {
        return HbRun.hb(args);
    }

    /** A config dir with {@code text} as haresources (mode 640) and its scripts in resource.d. */
    Path cfg(String text) throws IOException {
        Path cfg = ConfigDirBuilder.validTwoNode().haresources(null).writeTo(dir.resolve("ha.d"));
        Files.createDirectories(cfg.resolve("resource.d"));
        for (String s : List.of("labweb", "labdb", "Filesystem", "MailTo", "labmail")) {
            Path script = cfg.resolve("resource.d").resolve(s);
            Files.writeString(script, "#!/bin/sh\necho stopped\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path file = cfg.resolve("haresources");
        Files.write(file, text.getBytes(StandardCharsets.UTF_8));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        return cfg;
    }

    static String[] args(Path cfg, String... args) {
        List<String> all = new ArrayList<>(List.of("resources"));
        all.addAll(List.of(args));
        all.add("--config-dir");
        all.add(cfg.toString());
        return all.toArray(String[]::new);
    }

    static String read(Path file) throws IOException {
        return Files.readString(file);
    }

    @Test
    void listShowsOneLinePerGroup() throws IOException {
        HbRun r = hb(args(cfg(REAL), "list"));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().toList()).containsExactly(
                "1   node1        198.18.0.100/24/eth0 Filesystem::/dev/drbd0::/srv::ext4 labweb",
                "2   node2        IPaddr2::198.18.0.101/24/eth0 labdb::main labdb::replica labdb::a labdb::b labdb::c",
                "3   node1        MailTo::root@example.org");
    }

    @Test
    void showPrintsTheGroupAndItsLinesAsWritten() throws IOException {
        Path cfg = cfg(REAL);
        HbRun r = hb(args(cfg, "show", "198.18.0.100/24/eth0"));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("group 1 of " + cfg.resolve("haresources") + ", lines 5-7")
                .contains("preferred node: node1").contains("3. labweb").contains("   7| \tlabweb   # serves /srv");
        assertThat(hb(args(cfg, "show", "3")).out()).contains("key:            MailTo::root@example.org");
        HbRun bad = hb(args(cfg, "show", "4"));
        assertThat(bad.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(bad.err()).isEqualTo("hb: resources show: no group number 4: haresources has 3 group(s); see hb resources list\n");
    }

    @Test
    void checkIsTheDaemonsViewOfHaresources() throws IOException {
        Path cfg = cfg(REAL);
        HbRun ok = hb(args(cfg, "check"));
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("OK, 3 group(s)");
        Files.writeString(cfg.resolve("haresources"), REAL.replace("labweb", "labwebb"));
        HbRun bad = hb(args(cfg, "check"));
        assertThat(bad.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(bad.err()).contains(cfg.resolve("haresources") + ":5: ").contains("labwebb");
    }

    static Stream<Arguments> edits() {
        return Stream.of(
                Arguments.of(List.of("add", "node2", "198.18.0.102/24/eth0", "labmail"), List.of(), 14),
                Arguments.of(List.of("remove", "2"), List.of(10, 11), 11),
                Arguments.of(List.of("remove", "198.18.0.100/24/eth0"), List.of(5, 6, 7), 10),
                Arguments.of(List.of("remove", "MailTo::root@example.org"), List.of(13), 12),
                Arguments.of(List.of("move", "1", "node2"), List.of(5), 13),
                Arguments.of(List.of("move", "IPaddr2::198.18.0.101/24/eth0", "node1"), List.of(10), 13),
                Arguments.of(List.of("add-resource", "1", "labmail"), List.of(7), 13),
                Arguments.of(List.of("add-resource", "2", "labmail"), List.of(10), 13),
                Arguments.of(List.of("remove-resource", "1", "Filesystem::/dev/drbd0::/srv::ext4"), List.of(6), 13),
                Arguments.of(List.of("remove-resource", "2", "labdb::a"), List.of(10), 13));
    }

    /** Each edit, on the file with and without a final newline: other lines byte-identical, .bak = old, mode kept. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("edits")
    void editTouchesOnlyItsGroupsLines(List<String> edit, List<Integer> touched, int linesAfter) throws IOException {
        for (String text : List.of(REAL, REAL.substring(0, REAL.length() - 1))) {
            Path cfg = cfg(text);
            Path file = cfg.resolve("haresources");
            HbRun r = hb(args(cfg, edit.toArray(String[]::new)));
            assertThat(r.code()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).contains("reminder: the peer must have the same haresources: copy it there")
                    .contains("@@ ");
            String after = read(file);
            List<String> before = text.lines().toList();
            List<String> kept = new ArrayList<>(before);
            touched.stream().sorted((a, b) -> b - a).forEach(n -> kept.remove(n - 1));
            assertThat(after.lines().toList()).hasSize(linesAfter).containsSubsequence(kept);
            int firstTouched = touched.isEmpty() ? before.size() + 1 : touched.get(0);
            assertThat(after.lines().toList().subList(0, firstTouched - 1))
                    .as("lines above the edit are byte-identical").isEqualTo(before.subList(0, firstTouched - 1));
            assertThat(read(cfg.resolve("haresources.bak"))).isEqualTo(text);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r-----");
            assertThat(Files.exists(cfg.resolve("haresources.tmp"))).isFalse();
            assertThat(hb(args(cfg, "check")).code()).as("the result is valid").isZero();
            if (!edit.get(0).equals("add") && !(edit.get(0).equals("remove") && edit.get(1).startsWith("MailTo"))) {
                assertThat(after.endsWith("\n")).as("final newline kept as it was").isEqualTo(text.endsWith("\n"));
            }
        }
    }

    @Test
    void editsShowTheirEffect() throws IOException {
        Path cfg = cfg(REAL);
        Path file = cfg.resolve("haresources");
        assertThat(hb(args(cfg, "move", "1", "node2")).code()).isZero();
        assertThat(read(file)).isEqualTo(REAL.replace("node1\t198", "node2\t198"));
        assertThat(hb(args(cfg, "add-resource", "1", "labmail")).code()).isZero();
        assertThat(read(file)).contains("\tlabweb labmail   # serves /srv\n");
        assertThat(read(cfg.resolve("haresources.bak"))).as(".bak is the file before the last edit")
                .isEqualTo(REAL.replace("node1\t198", "node2\t198"));
        assertThat(hb(args(cfg, "remove-resource", "2", "labdb::replica")).code()).isZero();
        assertThat(read(file)).contains("node2 IPaddr2::198.18.0.101/24/eth0 labdb::main labdb::a labdb::b labdb::c \\\n");
        HbRun list = hb(args(cfg, "list"));
        assertThat(list.out()).contains("1   node2        198.18.0.100/24/eth0 Filesystem::/dev/drbd0::/srv::ext4 labweb labmail");
    }

    @Test
    void dryRunPrintsTheDiffAndLeavesTheFileAlone() throws IOException {
        Path cfg = cfg(REAL);
        HbRun r = hb(args(cfg, "move", "2", "node1", "--dry-run"));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("@@ -9,3 +9,3 @@\n # database, preferred on node2\n-node2 IPaddr2::198.18.0.101/24/eth0 labdb::main")
                .contains("+node1 IPaddr2::198.18.0.101/24/eth0 labdb::main")
                .contains("dry run: would have moved group 2 (key IPaddr2::198.18.0.101/24/eth0) on node2 to node1");
        assertThat(read(cfg.resolve("haresources"))).isEqualTo(REAL);
        assertThat(Files.exists(cfg.resolve("haresources.bak"))).isFalse();
        HbRun add = hb(args(cfg, "add", "node2", "labmail", "-n"));
        assertThat(add.out()).contains("+node2 labmail");
        assertThat(read(cfg.resolve("haresources"))).isEqualTo(REAL);
    }

    @Test
    void crlfIsWrittenAsLfWithAWarning() throws IOException {
        Path cfg = cfg(REAL.replace("\n", "\r\n"));
        HbRun r = hb(args(cfg, "move", "3", "node2"));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("haresources:1: warning: file has CRLF (DOS) line ends; it will be written with LF");
        assertThat(read(cfg.resolve("haresources"))).isEqualTo(REAL.replace("node1 MailTo", "node2 MailTo"));
        assertThat(read(cfg.resolve("haresources.bak"))).isEqualTo(REAL.replace("\n", "\r\n"));
    }

    @Test
    void moveToTheSameNodeChangesNothing() throws IOException {
        Path cfg = cfg(REAL);
        HbRun r = hb(args(cfg, "move", "1", "NODE1"));
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("nothing to change: group 1 (key 198.18.0.100/24/eth0) on node1 already prefers NODE1");
        assertThat(read(cfg.resolve("haresources"))).isEqualTo(REAL);
        assertThat(Files.exists(cfg.resolve("haresources.bak"))).isFalse();
    }

    @Test
    void addCreatesAMissingFile() throws IOException {
        Path cfg = cfg(REAL);
        Files.delete(cfg.resolve("haresources"));
        assertThat(hb(args(cfg, "list")).code()).isEqualTo(ExitCodes.CONFIG);
        // ip/prefix/iface: a bare address needs a route of this machine to carry it (HostChecks)
        HbRun r = hb(args(cfg, "add", "node1", "198.18.0.100/24/eth0", "labweb"));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(read(cfg.resolve("haresources"))).isEqualTo("node1 198.18.0.100/24/eth0 labweb\n");
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(List.of("add", "node3", "labmail"), "haresources:14: Bad nodename in haresources [node3]"),
                Arguments.of(List.of("add", "node1", "nosuchscript"), "haresources:14: "),
                Arguments.of(List.of("add", "node1", "198.18.0.300"), "haresources:14: bad IP address [198.18.0.300]"),
                Arguments.of(List.of("add", "node1", "IPaddr::198.18.0.9/33"), "prefix [33] must be 1..32"),
                Arguments.of(List.of("add", "node2", "labweb"), "haresources:14: duplicate group key [labweb]: it is already in the group on line 5"),
                Arguments.of(List.of("add", "node2", "labmail", "labdb::main"), "haresources:14: duplicate resource [labdb::main]"),
                Arguments.of(List.of("add", "node2", "IPaddr::198.18.0.100"), "haresources:14: address 198.18.0.100 is also in the group on line 5"),
                Arguments.of(List.of("add", "node1"), "needs at least one resource"),
                Arguments.of(List.of("add", "node1", "/usr/local/bin/web"), "Bad resource script name [/usr/local/bin/web]"),
                Arguments.of(List.of("add", "node1", "lab#web"), "must be one token"),
                Arguments.of(List.of("remove", "nosuch"), "no group with key [nosuch]; keys: 198.18.0.100/24/eth0, "),
                Arguments.of(List.of("remove", "4"), "no group number 4: haresources has 3 group(s)"),
                Arguments.of(List.of("remove", "labweb"), "[labweb] is a resource of group 1 (key 198.18.0.100/24/eth0), not a group key"),
                Arguments.of(List.of("move", "1", "node3"), "haresources:5: Bad nodename in haresources [node3]"),
                Arguments.of(List.of("move", "0", "node2"), "no group number 0"),
                Arguments.of(List.of("add-resource", "3", "nosuchscript"), "haresources:13: "),
                Arguments.of(List.of("add-resource", "3", "labweb"), "haresources:13: duplicate resource [labweb]"),
                Arguments.of(List.of("remove-resource", "3", "MailTo::root@example.org"), "only resource of group 3"),
                Arguments.of(List.of("remove-resource", "1", "labdb::main"), "group 1 (key 198.18.0.100/24/eth0) has no resource [labdb::main]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void invalidEditIsRefusedAndTheFileIsUnchanged(List<String> edit, String message) throws IOException {
        Path cfg = cfg(REAL);
        HbRun r = hb(args(cfg, edit.toArray(String[]::new)));
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(message).contains("not changed").doesNotContain("Exception");
        assertThat(read(cfg.resolve("haresources"))).isEqualTo(REAL);
        assertThat(Files.exists(cfg.resolve("haresources.bak"))).isFalse();
        assertThat(Files.exists(cfg.resolve("haresources.tmp"))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "check"})
    void missingHaCfNodesAreAnErrorForCheck(String cmd) throws IOException {
        Path cfg = cfg(REAL);
        Files.delete(cfg.resolve("ha.cf"));
        HbRun r = hb(args(cfg, cmd));
        assertThat(r.code()).as("list needs no ha.cf; check does").isEqualTo(cmd.equals("list") ? 0 : ExitCodes.CONFIG);
    }

    @Test
    void editOfAFileThatAlreadyHasErrorsSaysSo() throws IOException {
        Path cfg = cfg(REAL.replace("labweb", "labwebb"));
        HbRun r = hb(args(cfg, "move", "3", "node2"));
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("1 of them were already there, see hb resources check");
    }
}
