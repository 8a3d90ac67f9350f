package org.jheartbeat.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Metrics labels never carry a secret parameter of a haresources token. */
class LabelTextTest {
    @Test
    void secretLookingParametersAreHiddenAndTheRestKept() {
        assertThat(LabelText.of("IPaddr::198.18.0.100/24/eth0")).isEqualTo("IPaddr::198.18.0.100/24/eth0");
        assertThat(LabelText.of("ocf:heartbeat:mysql::config=/etc/mysql/my.cnf::replication_passwd=s3cret"
                + "::op_monitor_interval=30s")).isEqualTo("ocf:heartbeat:mysql::config=/etc/mysql/my.cnf"
                + "::replication_passwd=hidden::op_monitor_interval=30s");
        assertThat(LabelText.of("ocf:x:y::Password=a::api_token=b::keyfile=c::secret=d::credentials=e::user=f"))
                .isEqualTo("ocf:x:y::Password=hidden::api_token=hidden::keyfile=hidden::secret=hidden"
                        + "::credentials=hidden::user=f");
        assertThat(LabelText.of("password=x")).as("the agent itself is not a parameter").isEqualTo("password=x");
    }
}
