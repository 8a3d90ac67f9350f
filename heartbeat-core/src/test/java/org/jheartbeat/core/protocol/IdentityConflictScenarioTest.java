package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.List;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.protocol.StaleFrameCounter.Reason;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;
import org.junit.jupiter.api.Test;

/**
 * A live node that sends with our own name (another machine started as us, e.g. its host name
 * was taken over by a Hostname resource) is never taken for our own echo: node1 logs CRIT and starts
 * nothing, not even the groups of a peer that died meanwhile, until that node has been silent for deadtime.
 */
class IdentityConflictScenarioTest {
    final TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200);

    /** One beat of another daemon called node1, with its own node UUID. */
    private byte[] impostorBeat() {
        byte[] uuid = new byte[16];
        uuid[15] = 9;
        OutboundStamper other = new OutboundStamper(N1, uuid, 1_000_000, new MessageAuthenticator(h.config().authKeys()),
                () -> "0.00 0.00 0.00 1/1 1");
        HaMessage body = HaMessage.builder().add(Field.TYPE, MessageType.STATUS.wireName()).add(Field.STATUS, "active")
                .build();
        return other.stamp(body, h.clock().currentTimeMillis(), java.util.Optional.empty()).netstring();
    }

    /** One beat called node1 without a node UUID (as a stripped-down sender) and a newer generation. */
    private byte[] impostorBeatWithoutUuid() {
        HaMessage m = HaMessage.builder().add(Field.TYPE, MessageType.STATUS.wireName()).add(Field.STATUS, "active")
                .add(Field.SOURCE, N1.value()).add(Field.SEQ, "1").add(Field.GENERATION, OutboundStamper.hex(1_000_000))
                .add(Field.TIMESTAMP, OutboundStamper.hex(h.clock().currentTimeMillis() / 1000)).build();
        return org.jheartbeat.core.wire.WirePacket.of(m, new MessageAuthenticator(h.config().authKeys())).netstring();
    }

    @Test
    void aLiveNodeUsingOurNameHoldsEveryStartBackUntilItIsSilent() {
        h.start(N1);
        h.start(N2);
        h.run(15_000);
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        h.powerOff(N2);
        // the impostor beats every 500 ms from before node2's death until well after deadtime
        int logs = h.logs().size();
        for (int i = 0; i < 40; i++) {
            h.replay(N1, List.of(impostorBeat()));
            h.run(500);
        }
        List<String> during = h.logs().subList(logs, h.logs().size());
        assertThat(during).anyMatch(l -> l.contains("CRIT") && l.contains("Another live node uses this node's name node1")
                && l.contains("node UUID 00000000000000000000000000000009"));
        assertThat(during.stream().filter(l -> l.contains("Another live node"))).as("one CRIT per conflict").hasSize(1);
        assertThat(during).anyMatch(l -> l.contains("node node2: is dead") || l.contains("node2") && l.contains("dead"));
        assertThat(h.engine(N1).machine().identityConflict()).isTrue();
        assertThat(h.runningOn(N1)).as("node2's group is not taken over while someone else is node1")
                .containsExactly("198.18.0.100/24/eth0");
        assertThat(h.engine(N1).staleFrames().count(Reason.OWN_FRAME)).isZero();
        // hb status shows why node2's group is not started (its problem column), not node1's own running one
        assertThat(h.engine(N1).machine().groupProblem(1)).isEqualTo("not started here while another live node"
                + " uses this node's name node1 (see the CRIT log line)");
        assertThat(h.engine(N1).machine().groupProblem(0)).isEmpty();

        h.run(15_000); // the impostor is silent: after deadtime node1 acts again
        assertThat(h.engine(N1).machine().identityConflict()).isFalse();
        assertThat(h.engine(N1).machine().groupProblem(1)).isEmpty();
        assertThat(h.logs()).anyMatch(l -> l.contains("silent for deadtime; this node acts on its groups again"));
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0", "198.18.0.101");
    }

    @Test
    void withoutAUuidANewerGenerationGivesItAway() {
        h.start(N1);
        h.start(N2);
        h.run(15_000);
        int logs = h.logs().size();
        h.replay(N1, List.of(impostorBeatWithoutUuid()));
        h.run(1_000);
        assertThat(h.logs().subList(logs, h.logs().size())).anyMatch(l -> l.contains("Another live node")
                && l.contains("generation 1000000, ours is"));
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.101");
    }
}
