package org.jheartbeat.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Reloader}'s refusals, which never reach the cluster loop (none is given). */
class ReloaderTest {
    @TempDir
    Path dir;

    /**
     * A jheartbeat.yaml the next start would refuse is an error of {@code hb reload} (exit 2, nothing
     * applied), not "changed (needs a restart; not applied)" (tryout: the admin then restarts into a
     * daemon that does not start).
     */
    @Test
    void anInvalidJheartbeatYamlIsAnErrorNotARestartNote() throws Exception {
        ConfigDirBuilder.validHere().writeTo(dir);
        NodeName me = NodeName.of("node1");
        ClusterConfig running = ConfigLoader.load(dir, Optional.of(me)).config().orElseThrow();
        Reloader reloader = new Reloader(dir, me, running, null, java.time.Clock.systemUTC());
        Files.writeString(dir.resolve("jheartbeat.yaml"), "metric:\n  listen: {}\n");

        ControlResponse r = reloader.reload("test");

        assertThat(r.kind()).isEqualTo(ControlResponse.Kind.ERROR);
        assertThat(r.error()).startsWith(Reloader.CONFIG_ERRORS + dir + "; nothing applied");
        assertThat(r.body()).isEqualTo(dir.resolve("jheartbeat.yaml") + ":1: unknown key [metric]; did you mean"
                + " 'metrics'? known: alerts, authkeys, control, director, metrics, monitor, stonith, web\n");
    }

    /** crc on a network link nobody vouched for is a reload error that applies nothing. */
    @Test
    void crcOnALinkNobodyVouchedForIsRefused() throws Exception {
        ConfigDirBuilder.validHere().writeTo(dir);
        NodeName me = NodeName.of("node1");
        ClusterConfig running = ConfigLoader.load(dir, Optional.of(me)).config().orElseThrow();
        Reloader reloader = new Reloader(dir, me, running, null, java.time.Clock.systemUTC());

        ConfigDirBuilder.validHere().authkeys("auth 1\n1 crc\n").writeTo(dir);
        ControlResponse crc = reloader.reload("test");
        assertThat(crc.kind()).isEqualTo(ControlResponse.Kind.ERROR);
        assertThat(crc.body()).contains(dir.resolve("ha.cf") + ":6: the link on lo carries messages authenticated"
                + " with crc (authkeys: auth 1)");
    }
}
