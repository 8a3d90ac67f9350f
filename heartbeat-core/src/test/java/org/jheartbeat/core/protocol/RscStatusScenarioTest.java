package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * In fake time: {@code cl_status rscstatus} through the sequence of RscStatusIT,
 * one group preferred by node1. The expected words are what a real Heartbeat 3.0.6 pair printed in
 * the lab (Debian 1:3.0.6-13+b2, LAB_NODE1=LAB_NODE2=heartbeat, LAB_GROUPS=single), node1/node2 after
 * each step; an empty side is a stopped or powered-off node.
 */
class RscStatusScenarioTest {
    static final List<String> REAL_ON = List.of("node1 alone: all/", "node2 joins: local/local",
            "node1 stopped: /all", "node1 returns: local/local", "node1 hb_standby all: none/all",
            "node1 hb_takeover all: all/none", "node2 hb_takeover local: local/local",
            "node2 hb_standby foreign: local/local", "node2 power off: all/", "node2 back: local/local");
    static final List<String> REAL_OFF = List.of("node1 alone: all/", "node2 joins: all/none",
            "node1 stopped: /all", "node1 returns: none/all", "node1 hb_standby all: none/all",
            "node1 hb_takeover all: all/none", "node2 hb_takeover local: local/local",
            "node2 hb_standby foreign: local/local", "node2 power off: all/", "node2 back: all/none");

    @Test
    void autoFailbackOnSaysWhatHeartbeatSays() {
        assertThat(sequence(FailbackPolicy.ON)).isEqualTo(REAL_ON);
    }

    @Test
    void autoFailbackOffSaysWhatHeartbeatSays() {
        assertThat(sequence(FailbackPolicy.OFF)).isEqualTo(REAL_OFF);
    }

    private static List<String> sequence(FailbackPolicy failback) {
        TwoNodeHarness h = new TwoNodeHarness(List.of(new ResourceGroupDecl(N1, List.of(new ResourceSpec("IPaddr",
                List.of("198.18.0.100/24/eth0"), "198.18.0.100/24/eth0")), 1)), failback, 200);
        List<String> seen = new ArrayList<>();
        h.start(N1);
        seen.add(settle(h, "node1 alone"));
        h.start(N2);
        seen.add(settle(h, "node2 joins"));
        h.shutdown(N1);
        seen.add(settle(h, "node1 stopped"));
        h.start(N1);
        seen.add(settle(h, "node1 returns"));
        h.standby(N1, ResourceSet.ALL);
        seen.add(settle(h, "node1 hb_standby all"));
        h.takeover(N1, ResourceSet.ALL);
        seen.add(settle(h, "node1 hb_takeover all"));
        h.takeover(N2, ResourceSet.LOCAL);
        seen.add(settle(h, "node2 hb_takeover local"));
        h.standby(N2, ResourceSet.FOREIGN);
        seen.add(settle(h, "node2 hb_standby foreign"));
        h.powerOff(N2);
        seen.add(settle(h, "node2 power off"));
        h.start(N2);
        seen.add(settle(h, "node2 back"));
        assertThat(h.doubleRun()).as("trace %s", h.trace()).isNull();
        return seen;
    }

    private static String settle(TwoNodeHarness h, String step) {
        h.run(20_000);
        return step + ": " + word(h, N1) + "/" + word(h, N2);
    }

    private static String word(TwoNodeHarness h, NodeName n) {
        return h.engine(n) == null ? "" : h.engine(n).rscStatus();
    }
}
