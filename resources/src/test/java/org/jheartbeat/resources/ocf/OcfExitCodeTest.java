package org.jheartbeat.resources.ocf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The OCF return codes 0..8 (resource-agents' ocf-returncodes). */
class OcfExitCodeTest {
    @Test
    void table() {
        assertThat(OcfExitCode.values()).extracting(OcfExitCode::code).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(OcfExitCode.values()).extracting(OcfExitCode::constant).containsExactly("OCF_SUCCESS",
                "OCF_ERR_GENERIC", "OCF_ERR_ARGS", "OCF_ERR_UNIMPLEMENTED", "OCF_ERR_PERM", "OCF_ERR_INSTALLED",
                "OCF_ERR_CONFIGURED", "OCF_NOT_RUNNING", "OCF_RUNNING_MASTER");
        assertThat(OcfExitCode.of(7)).contains(OcfExitCode.NOT_RUNNING);
        assertThat(OcfExitCode.of(9)).isEmpty();
        assertThat(OcfExitCode.describe(6)).isEqualTo("rc=6 OCF_ERR_CONFIGURED");
        assertThat(OcfExitCode.describe(99)).isEqualTo("rc=99 (not an OCF code)");
    }
}
