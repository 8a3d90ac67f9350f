package org.jheartbeat.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the daemon warns about at start for a metrics endpoint reachable from the network. */
class MetricsStartupTest {
    @Test
    void aNonLoopbackAddressWarnsWithoutATokenAndWithoutTls() {
        assertThat(MetricsStartup.warnings("198.18.0.1:9810", false, true, false)).containsExactly("Metrics endpoint"
                + " on 198.18.0.1:9810 without TLS: the scrape and its token cross the network in clear text; set"
                + " jheartbeat.yaml metrics: tls_cert_file: and tls_key_file:, or listen on 127.0.0.1");
        assertThat(MetricsStartup.warnings("198.18.0.1:9810", false, false, false)).hasSize(2)
                .anyMatch(w -> w.contains("without a token")).anyMatch(w -> w.contains("the scrape crosses"));
        assertThat(MetricsStartup.warnings("198.18.0.1:9810", false, true, true)).isEmpty();
        assertThat(MetricsStartup.warnings("127.0.0.1:9810", true, false, false)).isEmpty();
    }
}
