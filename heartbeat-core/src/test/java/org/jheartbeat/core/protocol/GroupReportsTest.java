package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.takeover.GroupPlacement.PeerReport;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;
import org.junit.jupiter.api.Test;

/** {@code jhb-groups}: the wire form, its bounded decoder, and when a report is due. */
class GroupReportsTest {
    static final NodeName N1 = NodeName.of("node1");

    private static ResourceGroupDecl group(String key) {
        return new ResourceGroupDecl(N1, List.of(new ResourceSpec("IPaddr", List.of(key), key)), 1);
    }

    private static HaMessage body(String value) {
        HaMessage.Builder b = HaMessage.builder().add(Field.TYPE, MessageType.GROUP_STATES.wireName());
        if (value != null) {
            b.add(Field.GROUP_STATES, value);
        }
        return b.build();
    }

    @Test
    void everyStateAndAwkwardKeysSurviveTheRoundTrip() {
        List<String> keys = List.of("198.18.0.100/24/eth0", "IPaddr::198.18.0.101", "a,b=c d%e", "grüße",
                "x:y:z", "labweb::arg");
        List<GroupState> states = List.of(GroupState.RUNNING, GroupState.STARTING, GroupState.STOPPING,
                GroupState.BLOCKED, GroupState.FAILED, GroupState.STOPPED);
        HaMessage m = GroupReports.encode(keys, states);
        assertThat(m.type()).contains("jhb-groups");
        String v = m.get(Field.GROUP_STATES).orElseThrow();
        assertThat(v).startsWith("running:198.18.0.100/24/eth0,").doesNotContain(" ").doesNotContain("ü");
        Map<String, GroupState> expected = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            expected.put(keys.get(i), states.get(i));
        }
        assertThat(GroupReports.decode(v)).contains(expected);
        assertThat(GroupReports.encode(List.of(), List.of()).get(Field.GROUP_STATES)).contains("-");
        assertThat(GroupReports.decode("-")).contains(Map.of());
    }

    @Test
    void aListTooLongToSendIsSentAsTooManyAndReadAsNoReport() {
        List<String> keys = new ArrayList<>();
        List<GroupState> states = new ArrayList<>();
        for (int i = 0; keys.size() * 20 <= GroupReports.MAX_CHARS; i++) {
            keys.add("198.18." + (i / 250) + "." + (i % 250) + "/24/eth0");
            states.add(GroupState.RUNNING);
        }
        assertThat(GroupReports.encode(keys, states).get(Field.GROUP_STATES)).contains(GroupReports.TOO_MANY);
        assertThat(GroupReports.decode(GroupReports.TOO_MANY)).isEmpty();
        GroupReports r = new GroupReports();
        assertThat(r.received(body("running:a"), 5)).isEmpty();
        assertThat(r.received(body(GroupReports.TOO_MANY), 5)).isEmpty();
        assertThat(r.peerReport("a", 5)).as("an older report is not kept").isEqualTo(PeerReport.NONE);
    }

    @Test
    void malformedValuesAreRefusedWithAReasonAndChangeNothing() {
        assertThatThrownBy(() -> GroupReports.decode(null)).hasMessage("no grp_states");
        assertThatThrownBy(() -> GroupReports.decode("x".repeat(GroupReports.MAX_CHARS + 1)))
                .hasMessage("grp_states longer than 16384 characters");
        assertThatThrownBy(() -> GroupReports.decode("sleeping:a")).hasMessage("entry 'sleeping:a' is not STATE:KEY");
        assertThatThrownBy(() -> GroupReports.decode("Running:a")).hasMessageContaining("not STATE:KEY");
        assertThatThrownBy(() -> GroupReports.decode("running")).hasMessageContaining("not STATE:KEY");
        assertThatThrownBy(() -> GroupReports.decode("running:")).hasMessageContaining("not STATE:KEY");
        assertThatThrownBy(() -> GroupReports.decode("running:a,stopped:a")).hasMessage("group 'a' listed twice");
        assertThatThrownBy(() -> GroupReports.decode("running:a,,stopped:b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GroupReports.decode("running:%zz")).isInstanceOf(IllegalArgumentException.class);

        GroupReports r = new GroupReports();
        assertThat(r.received(body("running:a"), 7)).isEmpty();
        assertThat(r.received(body("running:a,stopped:a"), 7)).contains("jhb-groups: group 'a' listed twice");
        assertThat(r.received(body(null), 7)).contains("jhb-groups: no grp_states");
        assertThat(r.received(body("running:%zz"), 7)).hasValueSatisfying(s -> assertThat(s)
                .startsWith("jhb-groups: empty name or bad %-escape"));
        assertThat(r.peerReport("a", 7)).isEqualTo(new PeerReport.Reported(GroupState.RUNNING));
    }

    @Test
    void aReportSpeaksForThePeerGenerationItCameFrom() {
        GroupReports r = new GroupReports();
        assertThat(r.peerReport("a", 7)).isEqualTo(PeerReport.NONE);
        r.received(body("failed:a,running:b"), 7);
        assertThat(r.peerReport("a", 7)).isEqualTo(new PeerReport.Reported(GroupState.FAILED));
        assertThat(r.peerReport("b", 7)).isEqualTo(new PeerReport.Reported(GroupState.RUNNING));
        assertThat(r.peerReport("c", 7)).isEqualTo(PeerReport.UNDEFINED);
        assertThat(r.peerReport("a", 8)).as("the peer restarted since").isEqualTo(PeerReport.NONE);
    }

    @Test
    void aReportIsDueOnChangeToANewPeerGenerationAndAfterThePeerWasUnreachable() {
        GroupReports r = new GroupReports();
        List<ResourceGroupDecl> groups = List.of(group("a"), group("b"));
        GroupState[] states = {GroupState.RUNNING, GroupState.STOPPED};
        assertThat(r.due(groups, i -> states[i], 3, false)).isEmpty();
        Optional<HaMessage> first = r.due(groups, i -> states[i], 3, true);
        assertThat(first.flatMap(m -> m.get(Field.GROUP_STATES))).contains("running:a,stopped:b");
        assertThat(r.due(groups, i -> states[i], 3, true)).as("nothing changed").isEmpty();
        states[1] = GroupState.STARTING;
        assertThat(r.due(groups, i -> states[i], 3, true).flatMap(m -> m.get(Field.GROUP_STATES)))
                .contains("running:a,starting:b");
        assertThat(r.due(groups, i -> states[i], 4, true)).as("the peer restarted").isPresent();
        assertThat(r.due(groups, i -> states[i], 4, false)).isEmpty();
        assertThat(r.due(groups, i -> states[i], 4, true)).as("reachable again").isPresent();
        assertThat(r.due(List.of(group("a")), i -> states[i], 4, true).flatMap(m -> m.get(Field.GROUP_STATES)))
                .as("a reload removed b").contains("running:a");
    }

    /** A group a reload removed that may still run here is listed after ours while it does, and again once gone. */
    @Test
    void groupsLeftHereAreReportedAfterOursUntilTheyAreGone() {
        GroupReports r = new GroupReports();
        List<ResourceGroupDecl> groups = List.of(group("a"));
        GroupState[] states = {GroupState.RUNNING};
        assertThat(r.due(groups, i -> states[i], Map.of("b", GroupState.STOPPING), 3, true, false)
                .flatMap(m -> m.get(Field.GROUP_STATES))).contains("running:a,stopping:b");
        assertThat(r.due(groups, i -> states[i], Map.of("b", GroupState.STOPPING), 3, true, false))
                .as("nothing changed").isEmpty();
        assertThat(r.due(groups, i -> states[i], Map.of("b", GroupState.BLOCKED), 3, true, false)
                .flatMap(m -> m.get(Field.GROUP_STATES))).contains("running:a,blocked:b");
        assertThat(r.due(groups, i -> states[i], Map.of(), 3, true, false)
                .flatMap(m -> m.get(Field.GROUP_STATES))).as("stopped: gone").contains("running:a");
    }
}
