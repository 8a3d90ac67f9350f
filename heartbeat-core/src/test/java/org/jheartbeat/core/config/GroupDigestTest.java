package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The per-group summary sent in {@code cfg_groups}, by which the peer finds groups defined differently. */
class GroupDigestTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");

    /** The groups of a haresources text (must parse without errors). */
    static List<ResourceGroupDecl> groups(String haresources) {
        HaresourcesParser.Result r = HaresourcesParser.parse(Path.of("haresources"), haresources, List.of(N1, N2));
        assertThat(r.hasErrors()).as("%s", r.diagnostics()).isFalse();
        return r.groups();
    }

    static GroupDigest digest(String line) {
        return GroupDigest.of(groups(line + "\n").get(0));
    }

    @Test
    void addressesAreNormalisedWhateverTheSpellingOfTheResource() {
        Set<String> bare = digest("node1 198.18.0.100").identities();
        assertThat(digest("node1 IPaddr::198.18.0.100/24/eth0").identities()).isEqualTo(bare);
        assertThat(digest("node1 IPaddr2::198.18.0.100/16").identities()).isEqualTo(bare);
        assertThat(digest("node1 198.18.0.100/24/eth0/198.18.0.255").identities()).isEqualTo(bare);
        assertThat(digest("node1 198.18.0.101").identities()).isNotEqualTo(bare);
        assertThat(GroupDigest.identities(groups("node1 IPaddr::198.18.0.100/24/eth0 labweb::a::b\n").get(0)).values())
                .containsExactly("address 198.18.0.100", "resource labweb::a::b");
    }

    @Test
    void scriptsCountWithTheirArguments() {
        assertThat(digest("node1 labweb::a").identities()).isNotEqualTo(digest("node1 labweb::b").identities())
                .isNotEqualTo(digest("node1 labweb").identities());
        assertThat(digest("node1 labweb::a").identities()).isEqualTo(digest("node2 labweb::a").identities());
    }

    @Test
    void theDefinitionIsTheResourcesInOrderAndNotThePreferredNode() {
        GroupDigest a = digest("node1 198.18.0.100 labweb");
        assertThat(digest("node2 198.18.0.100 labweb").definition()).isEqualTo(a.definition());
        assertThat(digest("node1 198.18.0.100 labweb labdb").definition()).isNotEqualTo(a.definition());
        assertThat(digest("node1 labweb 198.18.0.100").definition()).isNotEqualTo(a.definition());
        assertThat(digest("node1 IPaddr::198.18.0.100 labweb").definition()).isEqualTo(a.definition());
        assertThat(a.definition()).matches("[0-9a-f]{" + GroupDigest.HASH_CHARS + "}");
    }

    @Test
    void encodeAndDecodeRoundTrip() {
        List<GroupDigest> gs = groups("""
                node1 198.18.0.100/24/eth0 labweb
                node2 IPaddr::198.18.0.101 Filesystem::/dev/sdb1::/srv:data::ext4 x%y,z
                """).stream().map(GroupDigest::of).toList();
        String wire = GroupDigest.encode(gs);
        assertThat(wire).startsWith("1 node1:").doesNotContain("\n");
        assertThat(GroupDigest.decode(wire)).isEqualTo(new GroupDigest.PeerGroups.Listed(gs));
        assertThat(GroupDigest.decode(GroupDigest.encode(List.of()))).isEqualTo(new GroupDigest.PeerGroups.Listed(List.of()));
        GroupDigest odd = new GroupDigest("a:b,c%d", NodeName.of("n:1,%"), gs.get(0).definition(), Set.of());
        assertThat(GroupDigest.decode(GroupDigest.encode(List.of(odd)))).isEqualTo(new GroupDigest.PeerGroups.Listed(List.of(odd)));
    }

    @Test
    void aListOverTheLimitIsSentAsTooMany() {
        List<GroupDigest> many = new ArrayList<>();
        for (int i = 0; !GroupDigest.encode(many).equals(GroupDigest.TOO_MANY); i++) {
            many.add(digest("node1 198.18." + i / 250 + "." + i % 250 + " labweb" + i + " labdb" + i));
        }
        System.out.println(many.size() + " groups of three resources exceed " + GroupDigest.MAX_WIRE_CHARS + " characters");
        assertThat(GroupDigest.encode(many)).isEqualTo(GroupDigest.TOO_MANY);
        assertThat(GroupDigest.encode(many.subList(0, many.size() - 1)).length()).isLessThanOrEqualTo(GroupDigest.MAX_WIRE_CHARS);
        assertThat(GroupDigest.decode(GroupDigest.TOO_MANY)).isEqualTo(new GroupDigest.PeerGroups.TooMany());
    }

    @Test
    void malformedValuesAreUnreadableNeverAnException() {
        String h = "0123456789ab";
        for (String bad : new String[] {"", "2", "2 node1:" + h + "::k", "1 node1:" + h + ":k", "1 node1:XYZ::k",
                "1 node1:" + h + ":zz::k", "1 node1:" + h + "::", "1 :" + h + "::k", "1 node%1:" + h + "::k",
                "1 node1:" + h + "::k%", "1 node1:" + h + "::%C3%A9", "1 no de1:" + h + "::k", "1  node1:" + h + "::k",
                "1 node1:" + h + ":" + h + ",:k", "1 x".repeat(6000)}) {
            assertThat(GroupDigest.decode(bad)).as(bad).isEqualTo(new GroupDigest.PeerGroups.Unreadable());
        }
        java.util.Random r = new java.util.Random(11);
        String good = GroupDigest.encode(List.of(digest("node1 198.18.0.100 labweb")));
        for (int i = 0; i < 2000; i++) {
            char[] c = good.toCharArray();
            c[r.nextInt(c.length)] = (char) (32 + r.nextInt(95));
            GroupDigest.decode(new String(c)); // never throws
        }
    }
}
