package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus endpoint in the lab: both nodes' jheartbeat.yaml turn the Prometheus endpoint on at their LAN
 * address; {@code curl} inside node1 shows the peer active, then dead after node2 loses power, with
 * the death counted (one more than before: a loaded machine may already have counted one) and its
 * eth1 link dead.
 */
@Tag("root")
class MetricsIT {
    private static final String YAML = "metrics:\n  listen:\n    node1: 198.18.0.1:9810\n    node2: 198.18.0.2:9810\n";
    private static final String PEER_ACTIVE = "jheartbeat_node_status{local=\"false\",node=\"node2\",status=\"active\"} 1.0";
    private static final String PEER_DEAD = "jheartbeat_node_status{local=\"false\",node=\"node2\",status=\"dead\"} 1.0";

    private static final String ETH1_DEAD = "jheartbeat_link_status{link=\"eth1\",node=\"node2\",status=\"dead\"} 1.0";

    /** The endpoint's page as curl inside node1 gets it, or "" when it does not answer. */
    private static String scrape(Lab lab) throws Exception {
        Lab.Result r = lab.lab("exec", "node1", "curl", "-s", "-f", "-m", "10", "http://198.18.0.1:9810/metrics");
        return r.code() == 0 ? r.output() : "";
    }

    /** The value of {@code jheartbeat_node_deaths_total{node="node2"}} in a scrape. */
    private static double deaths(String page) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "(?m)^jheartbeat_node_deaths_total\\{node=\"node2\"\\} ([0-9.]+)$").matcher(page);
        assertThat(m.find()).as(page).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void curlShowsThePeerActiveThenDeadAfterItsPowerOff() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3"))) {
            Files.writeString(lab.configDir("node1").resolve("jheartbeat.yaml"), YAML);
            Files.writeString(lab.configDir("node2").resolve("jheartbeat.yaml"), YAML);
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            lab.waitUntil(() -> scrape(lab).contains(PEER_ACTIVE), Figures.HANG_MS, "node1's metrics showing node2 active");
            String before = scrape(lab);
            assertThat(before).contains("jheartbeat_up 1.0")
                    .contains("jheartbeat_link_status{link=\"eth1\",node=\"node2\",status=\"up\"} 1.0");
            double deathsBefore = deaths(before);
            assertThat(lab.daemonLog("node1", 100)).contains("Metrics endpoint: http://198.18.0.1:9810/metrics");

            assertThat(lab.lab("poweroff", "node2").code()).isZero();
            // The node dies deadtime after its last status packet, each link deadtime after its last
            // packet of any kind: a link whose last packet came after the last status (an ack, a
            // retransmission) goes dead a few milliseconds after the node, so wait for both.
            lab.waitUntil(() -> {
                String page = scrape(lab);
                return page.contains(PEER_DEAD) && page.contains(ETH1_DEAD);
            }, Figures.HANG_MS, "node1's metrics showing node2 and its eth1 link dead");
            String after = scrape(lab);
            assertThat(deaths(after)).as(after).isEqualTo(deathsBefore + 1);
            assertThat(after).doesNotContain(PEER_ACTIVE)
                    .contains(ETH1_DEAD)
                    .contains("jheartbeat_group_state{group=\"198.18.0.100/24/eth0\",preferred_node=\"node1\","
                            + "state=\"running\"} 1.0");
        }
    }
}
