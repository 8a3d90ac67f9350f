package org.jheartbeat.core.protocol;

import org.jheartbeat.core.takeover.Effect;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.testkit.FakeClock;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.WireCodec;
import org.junit.jupiter.api.Test;

/** Bad packets are counted and logged (rate-limited), never crash anything, never change state. */
class BadPacketTest {
    final TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), org.jheartbeat.core.config.FailbackPolicy.ON, 100);

    @Test
    void garbageWrongKeyAndStrangersAreCountedAndChangeNothing() {
        h.start(TwoNodeHarness.N1);
        h.start(TwoNodeHarness.N2);
        h.run(6000);
        NodeEngine n1 = h.engine(TwoNodeHarness.N1);
        FakeClock clock = h.clock();
        var before = n1.detector().links(TwoNodeHarness.N2);

        // a perfectly formed status from node2, signed with the wrong key
        MessageAuthenticator wrongKey = new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, "wrong".getBytes()));
        byte[] forged = WireCodec.encodeForUdp(HaMessage.builder().add("t", "status").add("st", "dead").add("dt", "1")
                .add("protocol", "1").add("src", "node2").add("seq", "ffff").add("hg", "ffffffff").add("ts", "1").build(),
                wrongKey, true);
        // a correctly signed message from a node that is not in ha.cf
        MessageAuthenticator rightKey = new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, "testsecret".getBytes()));
        byte[] stranger = WireCodec.encodeForUdp(HaMessage.builder().add("t", "shutdone").add("st", "dead")
                .add("src", "intruder").add("seq", "1").add("hg", "1").add("ts", "1").build(), rightKey, true);

        Random r = new Random(42);
        List<Effect> effects = new java.util.ArrayList<>();
        int bad = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] p;
            if (i % 3 == 0) {
                p = forged;
            } else if (i % 3 == 1) {
                p = stranger;
            } else {
                p = new byte[r.nextInt(600)];
                r.nextBytes(p);
            }
            effects.addAll(n1.onFrame("eth1", "198.18.1.66:694", p, clock.nanoTime(), clock.currentTimeMillis()));
            bad++;
        }
        assertThat(n1.badPackets().total()).isEqualTo(bad);
        assertThat(n1.badPackets().bySource()).containsEntry("198.18.1.66:694 on eth1", (long) bad);
        assertThat(effects).as("one log line per source per 10 s, nothing else")
                .hasSize(1).allMatch(e -> e instanceof Effect.LogLine);
        clock.advanceMillis(10_001);
        assertThat(n1.onFrame("eth1", "198.18.1.66:694", forged, clock.nanoTime(), clock.currentTimeMillis()))
                .singleElement().satisfies(e -> assertThat(((Effect.LogLine) e).text()).contains("2999 more suppressed"));

        h.run(1000);
        assertThat(n1.detector().status(TwoNodeHarness.N2)).isEqualTo(NodeStatus.ACTIVE);
        assertThat(n1.detector().links(TwoNodeHarness.N2)).isEqualTo(before);
        assertThat(h.runningOn(TwoNodeHarness.N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(h.runningOn(TwoNodeHarness.N2)).containsExactly("198.18.0.101");
        assertThat(h.doubleRun()).isNull();
        assertThat(NodeName.of("node2")).isEqualTo(TwoNodeHarness.N2);
    }
}
