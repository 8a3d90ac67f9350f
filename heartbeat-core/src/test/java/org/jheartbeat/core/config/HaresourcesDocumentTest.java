package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link HaresourcesDocument}: lenient group finding and edits that leave untouched lines byte-identical. */
class HaresourcesDocumentTest {
    /** A realistic file: header comments, tabs, continuations with comments, a trailing comment, no final newline. */
    static final String REAL = """
            #
            #\tThis is a list of resources that move from machine to machine as
            #\tnodes go down and come up in the cluster.
            #
            # node1 10.0.0.170 Filesystem::/dev/sda1::/data1::ext2

            node1\t198.18.0.100/24/eth0 \\
            \tFilesystem::/dev/drbd0::/srv::ext4 \\
            \tlabweb   # the web tier

            # database, preferred on node2
            node2 IPaddr2::198.18.0.101/24/eth0 db1 db2 db3 db4 db5 db6 \\
            # a comment line ends the logical line
            \t
            node1 mailto::root@example.org""";

    static HaresourcesDocument real() {
        return HaresourcesDocument.parse(REAL);
    }

    @Test
    void findsGroupsLikeTheParser() {
        HaresourcesDocument d = real();
        assertThat(d.render()).isEqualTo(REAL);
        assertThat(d.groups()).extracting(HaresourcesDocument.Group::key)
                .containsExactly("198.18.0.100/24/eth0", "IPaddr2::198.18.0.101/24/eth0", "mailto::root@example.org");
        assertThat(d.groups()).extracting(g -> g.firstLine() + "-" + g.lastLine()).containsExactly("7-9", "12-13", "15-15");
        assertThat(d.groups().get(0).resources()).containsExactly("198.18.0.100/24/eth0",
                "Filesystem::/dev/drbd0::/srv::ext4", "labweb");
        HaresourcesParser.Result parsed = HaresourcesParser.parse(Path.of("h"), REAL,
                List.of(NodeName.of("node1"), NodeName.of("node2")));
        assertThat(parsed.diagnostics()).isEmpty();
        assertThat(parsed.groups()).extracting(ResourceGroupDecl::line).containsExactly(7, 12, 15);
        assertThat(parsed.groups()).extracting(ResourceGroupDecl::key)
                .containsExactlyElementsOf(d.groups().stream().map(HaresourcesDocument.Group::key).toList());
    }

    @Test
    void addAppendsOneLineAndKeepsEveryOtherLine() throws Exception {
        HaresourcesDocument d = real().withGroupAdded("node2", List.of("198.18.0.102", "labmail"));
        assertUntouched(REAL, d.render(), Set.of());
        assertThat(d.render()).isEqualTo(REAL + "\nnode2 198.18.0.102 labmail\n");
        assertThat(d.groups()).hasSize(4);
        assertThat(d.groups().get(3).firstLine()).isEqualTo(16);
    }

    @Test
    void addAfterADanglingContinuationDoesNotJoinIt() throws Exception {
        HaresourcesDocument d = HaresourcesDocument.parse("node1 a \\\n").withGroupAdded("node2", List.of("b"));
        assertThat(d.render()).isEqualTo("node1 a \\\n\nnode2 b\n");
        assertThat(d.groups()).extracting(HaresourcesDocument.Group::key).containsExactly("a", "b");
        assertThat(HaresourcesDocument.parse("").withGroupAdded("node1", List.of("a")).render()).isEqualTo("node1 a\n");
    }

    @Test
    void removeDeletesOnlyTheGroupsLines() throws Exception {
        HaresourcesDocument d = real().withGroupRemoved("2");
        assertThat(d.lines()).hasSize(real().lines().size() - 2);
        assertThat(d.render()).isEqualTo(REAL.replace("""
                node2 IPaddr2::198.18.0.101/24/eth0 db1 db2 db3 db4 db5 db6 \\
                # a comment line ends the logical line
                """, ""));
        HaresourcesDocument first = real().withGroupRemoved("198.18.0.100/24/eth0");
        assertThat(first.render()).doesNotContain("labweb").doesNotContain("# the web tier").contains("# database");
        assertThat(first.groups()).hasSize(2);
        HaresourcesDocument last = real().withGroupRemoved("mailto::root@example.org");
        assertThat(last.render()).isEqualTo(REAL.substring(0, REAL.lastIndexOf('\n') + 1));
    }

    @Test
    void moveRewritesOnlyTheFirstToken() throws Exception {
        HaresourcesDocument d = real().withGroupMoved("1", "node2");
        assertUntouched(REAL, d.render(), Set.of(6));
        assertThat(d.lines().get(6)).isEqualTo("node2\t198.18.0.100/24/eth0 \\");
        assertThat(real().withGroupMoved("1", "NODE1").render()).as("same node: no change").isEqualTo(REAL);
    }

    @Test
    void addResourceGoesBeforeTheTrailingCommentOrBackslash() throws Exception {
        HaresourcesDocument d = real().withResourceAdded("1", "labcache");
        assertUntouched(REAL, d.render(), Set.of(8));
        assertThat(d.lines().get(8)).isEqualTo("\tlabweb labcache   # the web tier");
        HaresourcesDocument d2 = real().withResourceAdded("2", "db7");
        assertUntouched(REAL, d2.render(), Set.of(11));
        assertThat(d2.lines().get(11)).endsWith("db6 db7 \\");
        assertThat(d2.groups().get(1).resources()).endsWith("db6", "db7");
    }

    @Test
    void removeResourceTakesItsSeparatorWithIt() throws Exception {
        HaresourcesDocument d = real().withResourceRemoved("2", "db3");
        assertUntouched(REAL, d.render(), Set.of(11));
        assertThat(d.lines().get(11)).isEqualTo("node2 IPaddr2::198.18.0.101/24/eth0 db1 db2 db4 db5 db6 \\");
        HaresourcesDocument d2 = real().withResourceRemoved("1", "Filesystem::/dev/drbd0::/srv::ext4");
        assertThat(d2.lines().get(7)).isEqualTo("\t\\");
        assertThat(d2.groups().get(0).resources()).containsExactly("198.18.0.100/24/eth0", "labweb");
    }

    @Test
    void crlfIsNormalisedAndReported() throws Exception {
        HaresourcesDocument d = HaresourcesDocument.parse(REAL.replace("\n", "\r\n"));
        assertThat(d.crlfNormalised()).isTrue();
        assertThat(d.render()).isEqualTo(REAL);
        assertThat(real().crlfNormalised()).isFalse();
        assertThat(d.withGroupMoved("3", "node2").crlfNormalised()).isTrue();
    }

    @Test
    void refusedEditsSayWhy() {
        assertThatThrownBy(() -> real().find("9")).hasMessageContaining("no group number 9: haresources has 3 group(s)");
        assertThatThrownBy(() -> real().find("nosuch")).hasMessageContaining("no group with key [nosuch]; keys: ");
        assertThatThrownBy(() -> real().find("labweb")).hasMessageContaining("is a resource of group 1");
        assertThatThrownBy(() -> real().withGroupAdded("node1", List.of()))
                .hasMessageContaining("needs at least one resource");
        assertThatThrownBy(() -> real().withGroupAdded("node1", List.of("a b")))
                .hasMessageContaining("must be one token");
        assertThatThrownBy(() -> real().withGroupAdded("node1", List.of("a#b"))).hasMessageContaining("must be one token");
        assertThatThrownBy(() -> real().withResourceRemoved("3", "mailto::root@example.org"))
                .hasMessageContaining("only resource of group 3");
        assertThatThrownBy(() -> real().withResourceRemoved("1", "nope")).hasMessageContaining("has no resource [nope]");
    }

    @Test
    void brokenFilesStillListTheirGroups() {
        HaresourcesDocument d = HaresourcesDocument.parse("nodex\n\nnode1 a\n");
        assertThat(d.groups()).extracting(HaresourcesDocument.Group::key).containsExactly("", "a");
    }

    @Test
    void diffShowsTheChangedLinesWithContext() throws Exception {
        List<String> hunk = LineDiff.unified(real().lines(), real().withGroupMoved("1", "node2").lines(), 1);
        assertThat(hunk).containsExactly("@@ -6,3 +6,3 @@", " ", "-node1\t198.18.0.100/24/eth0 \\",
                "+node2\t198.18.0.100/24/eth0 \\", " \tFilesystem::/dev/drbd0::/srv::ext4 \\");
        assertThat(LineDiff.unified(List.of("a"), List.of("a", "b"), 0)).containsExactly("@@ -1,0 +2,1 @@", "+b");
        assertThat(LineDiff.unified(List.of("a"), List.of("a"), 3)).isEmpty();
    }

    /** Every line of {@code before} except those at {@code changed} (0-based) is in {@code after}, in order, byte-identical. */
    static void assertUntouched(String before, String after, Set<Integer> changed) {
        List<String> b = List.of(before.split("\n", -1));
        List<String> a = new ArrayList<>(List.of(after.split("\n", -1)));
        for (int i = 0; i < b.size(); i++) {
            if (!changed.contains(i)) {
                assertThat(a.get(i)).as("line %d", i + 1).isEqualTo(b.get(i));
            }
        }
    }
}
