package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jheartbeat.core.control.ControlRequest.HandoverKind;
import org.jheartbeat.core.takeover.ResourceSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The control request grammar: every request round-trips; every malformed line gets one clear reason. */
class ControlRequestTest {

    @Test
    void everyRequestRoundTrips() throws Exception {
        List<ControlRequest> all = List.of(new ControlRequest.Status(false), new ControlRequest.Status(true),
                new ControlRequest.ClStatus(List.of("-m", "hblinkstatus", "node2", "eth1")),
                new ControlRequest.ConfigDigest(), new ControlRequest.GroupsRunning(),
                new ControlRequest.Handover(HandoverKind.STANDBY, ResourceSet.ALL, 60),
                new ControlRequest.Handover(HandoverKind.TAKEOVER, ResourceSet.FOREIGN, 3600),
                new ControlRequest.Cleanup(java.util.Optional.empty()),
                new ControlRequest.Cleanup(java.util.Optional.of("198.18.0.100/24/eth0")),
                new ControlRequest.Cleanup(java.util.Optional.of("2")), new ControlRequest.Reload());
        for (ControlRequest r : all) {
            assertThat(ControlRequest.parse(r.toWire())).isEqualTo(r);
        }
        assertThat(ControlRequest.parse("standby failback 5"))
                .isEqualTo(new ControlRequest.Handover(HandoverKind.STANDBY, ResourceSet.FOREIGN, 5));
        assertThat(new ControlRequest.Status(false).toWire()).isEqualTo("status");
        assertThat(new ControlRequest.Reload().toWire()).isEqualTo("reload");
        assertThat(reason("reload now")).isEqualTo("reload takes no arguments, got 1");
        assertThat(new ControlRequest.ConfigDigest().toWire()).isEqualTo(ConfigDigestReport.REQUEST);
    }

    static String reason(String line) {
        try {
            ControlRequest r = ControlRequest.parse(line);
            throw new AssertionError("parsed [" + line + "] as " + r);
        } catch (MalformedRequestException e) {
            return e.getMessage();
        }
    }

    @Test
    void malformedLinesGetOneLineReasons() {
        assertThat(reason("")).isEqualTo("empty request");
        assertThat(reason("x".repeat(600))).isEqualTo("request of 600 bytes is longer than 512");
        assertThat(reason("frobnicate")).startsWith("unknown request 'frobnicate' (known: status,");
        assertThat(reason("f".repeat(100))).contains("'" + "f".repeat(32) + "...'");
        assertThat(reason("standby none 60")).isEqualTo("standby: unknown set 'none' (use all, local, foreign or failback)");
        assertThat(reason("takeover everything 60")).startsWith("takeover: unknown set 'everything'");
        assertThat(reason("standby all 0")).isEqualTo("standby: timeout '0' is not 1..3600 seconds");
        assertThat(reason("standby all 3601")).contains("timeout '3601'");
        assertThat(reason("standby all -5")).contains("timeout '-5'");
        assertThat(reason("standby all 99999999999999999999")).contains("timeout '9999");
        assertThat(reason("standby all")).isEqualTo("standby takes 2 arguments (SET TIMEOUT_S), got 1");
        assertThat(reason("status now")).isEqualTo("status takes no arguments, got 1");
        assertThat(reason("cleanup a b")).isEqualTo("cleanup takes at most 1 argument (GROUP), got 2");
        assertThat(reason("cl_status")).isEqualTo("cl_status takes 1..8 arguments, got 0");
        assertThat(reason("cl_status a b c d e f g h i")).isEqualTo("cl_status takes 1..8 arguments, got 9");
        assertThat(reason("status\u00e9")).startsWith("character U+00E9 at offset 6");
        assertThat(reason("sta\ttus")).startsWith("character U+0009 at offset 3");
        assertThat(reason("status\u0000")).startsWith("character U+0000");
        assertThat(reason(" status")).startsWith("leading, trailing or doubled space");
        assertThat(reason("cl_status  rscstatus")).startsWith("leading, trailing or doubled space");
        assertThat(reason("status ")).startsWith("leading, trailing or doubled space");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\n", "\r", "\u001b[2J", "status\r\n", "\u00ff\u00fe", "\u4e2d\u6587", "ST ATUS",
        "STATUS", "standby", "standby all 60 extra", "takeover local 1e3", "takeover local 0x10", "cl_status \u00e9",
        "a b c d e f g h i j k l m n o p q r s t u v w x y z"})
    void everyReasonIsOnePrintableAsciiLine(String line) {
        String r = reason(line);
        assertThat(r).isNotBlank().matches("[\\x20-\\x7e]+").hasSizeLessThan(200);
    }

    @Test
    void recordsRefuseWhatTheParserRefuses() {
        assertThatThrownBy(() -> new ControlRequest.ClStatus(List.of("a b"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ControlRequest.ClStatus(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ControlRequest.Handover(HandoverKind.STANDBY, ResourceSet.NONE, 5))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ControlRequest.Handover(HandoverKind.TAKEOVER, ResourceSet.ALL, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
