package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.HbRun.hb;

import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.config.ConfigDigest;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.control.ConfigDigestReport;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hb config diff} against a stand-in daemon: a control socket answering {@code config-digest}. */
class ConfigDiffCommandTest {
    @TempDir
    Path dir;

    private ConfigDigest digestOf(String sub, ConfigDirBuilder b) {
        return ConfigDigest.of(ConfigLoader.load(b.writeTo(dir.resolve(sub)), Optional.empty()).config().orElseThrow());
    }

    private HbRun diffAgainst(ConfigDigestReport answer, String... extra) throws Exception {
        Path state = dir.resolve("state");
        java.nio.file.Files.createDirectories(state);
        try (ControlServer s = new ControlServer(new StateDirectory(state).controlSocket(),
                req -> req instanceof org.jheartbeat.core.control.ControlRequest.ConfigDigest
                        ? ControlResponse.ok(answer.toText())
                        : ControlResponse.error("unknown request [" + req.toWire() + "]"))) {
            s.start();
            String[] args = new String[3 + extra.length];
            args[0] = "config";
            args[1] = "diff";
            args[2] = "--state-dir=" + state;
            System.arraycopy(extra, 0, args, 3, extra.length);
            return hb(args);
        }
    }

    @Test
    void allSameExitsZero() throws Exception {
        ConfigDigest d = digestOf("a", ConfigDirBuilder.validTwoNode());
        HbRun r = diffAgainst(new ConfigDigestReport("node2", d, Optional.of(d)));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).isEqualTo("Comparing this node's running config with node2's running config:\n"
                + "  haresources                same\n"
                + "  authkeys                   same\n"
                + "  ha.cf (cluster settings)   same\n");
    }

    @Test
    void aDifferentFileIsNamedAndExitsOne() throws Exception {
        ConfigDigest mine = digestOf("a", ConfigDirBuilder.validTwoNode());
        ConfigDigest peers = digestOf("b", ConfigDirBuilder.validTwoNode().haresources("node2 198.18.0.101\n"));
        HbRun r = diffAgainst(new ConfigDigestReport("node2", mine, Optional.of(peers)));
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.out()).contains("  haresources                DIFFERS\n").contains("  authkeys                   same\n");
    }

    @Test
    void configDirComparesTheFilesOnDiskInstead() throws Exception {
        ConfigDigest running = digestOf("a", ConfigDirBuilder.validTwoNode());
        ConfigDigest peers = digestOf("b", ConfigDirBuilder.validTwoNode().haresources("node2 198.18.0.101\n"));
        Path edited = ConfigDirBuilder.validTwoNode().haresources("node2   198.18.0.101 # as on node2\n")
                .writeTo(dir.resolve("edited"));
        HbRun r = diffAgainst(new ConfigDigestReport("node2", running, Optional.of(peers)), "--config-dir", edited.toString());
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).startsWith("Comparing " + edited + " with node2's running config:");
    }

    @Test
    void aPeerWithoutDigestIsUnknownAndExitsOne() throws Exception {
        ConfigDigest d = digestOf("a", ConfigDirBuilder.validTwoNode());
        HbRun r = diffAgainst(new ConfigDigestReport("node2", d, Optional.empty()));
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.out()).contains("  authkeys                   unknown (node2 sent no digest");
    }

    @Test
    void noDaemonExitsThree() {
        HbRun r = hb("config", "diff", "--state-dir", dir.resolve("nothing").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_RUNNING);
        assertThat(r.err()).startsWith("hb: no daemon is running");
    }
}
