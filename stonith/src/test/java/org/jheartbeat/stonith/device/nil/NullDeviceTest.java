package org.jheartbeat.stonith.device.nil;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.Test;

class NullDeviceTest {
    @Test
    void alwaysOkEvenForUnlistedHostsAsClusterGlue() throws Exception {
        NullDevice d = new NullDevice();
        d.configure(Map.of("hostlist", "NodeA,nodeb"));
        assertThat(d.type()).isEqualTo("null");
        assertThat(d.hostList()).containsExactly("nodea", "nodeb");
        assertThat(d.status()).isEqualTo(StonithResult.OK);
        for (ResetRequest r : ResetRequest.values()) {
            assertThat(d.reset(r, "nodea")).isEqualTo(StonithResult.OK);
        }
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "other")).isEqualTo(StonithResult.OK);
    }

    @Test
    void needsHostlist() {
        assertThatThrownBy(() -> new NullDevice().configure(Map.of())).isInstanceOf(StonithConfigException.class)
                .hasMessageContaining("hostlist");
    }
}
