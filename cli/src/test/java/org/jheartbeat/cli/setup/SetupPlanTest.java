package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jheartbeat.cli.runtime.ConfigPush;
import org.junit.jupiter.api.Test;

/** Re-running hb setup: nothing to change, refuse a different configuration, or replace it with --force. */
class SetupPlanTest {
    private static final Map<String, String> FILES = SetupFiles.render(SetupFilesTest.answers("node1", "node2",
            "198.18.1.1", "198.18.1.2"));

    private static Map<String, ConfigPush.FileCopy> holding(Map<String, String> files) {
        Map<String, ConfigPush.FileCopy> m = new LinkedHashMap<>();
        SetupPlan.copies(files).forEach(c -> m.put(c.name(), c));
        return m;
    }

    @Test
    void twoBareNodesGetEveryFile() {
        SetupPlan p = SetupPlan.decide(FILES, Map.of(), Map.of(), false);
        assertThat(p.decision()).isEqualTo(SetupPlan.Decision.WRITE);
        assertThat(p.render("node1:/etc/ha.d", SetupPlan.where("node2", "h", "/etc/ha.d")))
                .anyMatch(l -> l.matches("  node1:/etc/ha\\.d/authkeys +new \\(mode 600\\)"))
                .anyMatch(l -> l.matches("  node2 h:/etc/ha\\.d/ha\\.cf +new \\(mode 644\\)"))
                .hasSize(8);
    }

    @Test
    void aPeersFileReadsAsTheNodeThenWhereSshReachesIt() {
        // a tester read "node2 (198.18.1.2:/etc/ha.d)/ha.cf"
        String where = SetupPlan.where("node2", "198.18.1.2", "/etc/ha.d");
        assertThat(where).isEqualTo("node2 198.18.1.2:/etc/ha.d");
        assertThat(SetupPlan.where("node2", "node2", "/etc/ha.d")).isEqualTo("node2:/etc/ha.d");
        Map<String, String> other = new LinkedHashMap<>(FILES);
        other.put("haresources", FILES.get("haresources").replace("apache2", "nginx"));
        assertThat(SetupPlan.decide(other, holding(FILES), holding(FILES), false).render("node1:/etc/ha.d", where))
                .contains("--- node2 198.18.1.2:/etc/ha.d/haresources (now)")
                .anyMatch(l -> l.matches("  node2 198\\.18\\.1\\.2:/etc/ha\\.d/haresources +DIFFERS:"));
    }

    @Test
    void aConfiguredPairWithTheSameAnswersHasNothingToChange() {
        assertThat(SetupPlan.decide(FILES, holding(FILES), holding(FILES), false).decision())
                .isEqualTo(SetupPlan.Decision.NOTHING_TO_CHANGE);
        assertThat(SetupPlan.decide(FILES, holding(FILES), holding(FILES), true).decision())
                .isEqualTo(SetupPlan.Decision.NOTHING_TO_CHANGE);
    }

    @Test
    void otherAnswersAreRefusedWithTheDiffUnlessForced() {
        Map<String, String> other = new LinkedHashMap<>(FILES);
        other.put("haresources", FILES.get("haresources").replace("apache2", "nginx"));
        other.put("authkeys", "auth 1\n1 sha1 another-secret-key-of-some-length\n");
        SetupPlan refused = SetupPlan.decide(other, holding(FILES), holding(FILES), false);
        assertThat(refused.decision()).isEqualTo(SetupPlan.Decision.REFUSE);
        assertThat(refused.differingFiles("node1", "node2")).containsExactly("node1:authkeys", "node1:haresources",
                "node2:authkeys", "node2:haresources");
        String shown = String.join("\n", refused.render("node1:/etc/ha.d", "node2"));
        assertThat(shown).contains("-node1 198.18.0.100/24/eth0 apache2\n+node1 198.18.0.100/24/eth0 nginx")
                .contains("node2/ha.cf").contains("unchanged")
                .doesNotContain("another-secret-key").doesNotContain(SetupFilesTest.KEY);
        assertThat(SetupPlan.decide(other, holding(FILES), holding(FILES), true).decision())
                .isEqualTo(SetupPlan.Decision.WRITE);
    }

    @Test
    void aFileWithAnotherModeIsADifferenceToo() {
        Map<String, ConfigPush.FileCopy> peer = holding(FILES);
        peer.put("authkeys", new ConfigPush.FileCopy("authkeys", FILES.get("authkeys").getBytes(StandardCharsets.UTF_8),
                0644));
        SetupPlan p = SetupPlan.decide(FILES, holding(FILES), peer, false);
        assertThat(p.decision()).isEqualTo(SetupPlan.Decision.REFUSE);
        assertThat(p.render("a", "b")).anyMatch(l -> l.contains("b/authkeys") && l.contains("mode 644 -> 600"));
    }

    @Test
    void onlyOneNodeConfiguredTheSameWayGetsTheMissingFilesOnTheOther() {
        SetupPlan p = SetupPlan.decide(FILES, holding(FILES), Map.of(), false);
        assertThat(p.decision()).isEqualTo(SetupPlan.Decision.WRITE);
        assertThat(ConfigPush.changes(p.local())).isEmpty();
        assertThat(ConfigPush.changes(p.peer())).hasSize(4);
    }

    @Test
    void thePairIsUpWhenEachNodeListsTheOtherAsActive() {
        String n1 = "{\"schema\":\"jheartbeat.status/1\",\"node\":\"node1\",\"nodes\":[{\"name\":\"node1\",\"status\":"
                + "\"active\",\"local\":true},{\"name\":\"node2\",\"status\":\"active\",\"local\":false}]}";
        String n2early = "{\"nodes\":[{\"name\":\"node1\",\"status\":\"init\"},{\"name\":\"node2\",\"status\":\"active\"}]}";
        assertThat(PairStatus.seesActive(n1, "node2")).isTrue();
        assertThat(PairStatus.seesActive(n2early, "node1")).isFalse();
        assertThat(PairStatus.seesActive("not json", "node1")).isFalse();
    }
}
