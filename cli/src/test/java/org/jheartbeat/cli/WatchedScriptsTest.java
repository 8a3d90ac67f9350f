package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb config check} runs the status of each Heartbeat-class script this node watches and says when its
 * answer is neither running nor stopped (real scripts, real processes).
 */
class WatchedScriptsTest {
    @TempDir
    Path dir;

    private Path config(String haresources, String yaml) throws Exception {
        Path cfg = ConfigDirBuilder.validHere().writeTo(dir.resolve("cfg"));
        Files.writeString(cfg.resolve("haresources"), haresources);
        if (yaml != null) {
            Files.writeString(cfg.resolve("jheartbeat.yaml"), yaml);
        }
        Path rd = Files.createDirectories(cfg.resolve("resource.d"));
        script(rd, "nostatus", "echo \"usage: nostatus start|stop\" >&2; exit 1");
        script(rd, "says", "case $1 in status) echo stopped; exit 3;; esac; exit 0");
        return cfg;
    }

    private static void script(Path rd, String name, String body) throws Exception {
        Path s = Files.writeString(rd.resolve(name), "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private HbRun check(Path cfg) {
        return HbRun.hb("config", "check", "--config-dir", cfg.toString(), "--node-name", "node1");
    }

    @Test
    void aWatchedScriptWithoutAStatusIsNamedAndOneThatSaysStoppedIsNot() throws Exception {
        Path cfg = config("node1 nostatus::op_monitor_interval=5s says::op_monitor_interval=5s\n", null);
        HbRun r = check(cfg);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains(cfg.resolve("haresources") + ":1: warning: nostatus::op_monitor_interval=5s is watched, but"
                + " 'status' printed [usage: nostatus start|stop], neither running nor stopped: the monitor would take"
                + " it for stopped while it runs").doesNotContain("says::op_monitor_interval=5s is watched");
    }

    @Test
    void scriptsAreCheckedOnlyWhenWatchedPerResourceOrNodeWide() throws Exception {
        Path unwatched = config("node1 nostatus says\n", null);
        assertThat(check(unwatched).out()).doesNotContain("is watched");
        Files.walk(dir.resolve("cfg")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        Path nodeWide = config("node1 nostatus says\n", "monitor:\n  heartbeat_class: yes\n");
        assertThat(check(nodeWide).out()).contains(":1: warning: nostatus is watched, but 'status' printed [usage: nostatus"
                + " start|stop]").doesNotContain("says is watched");
    }

    @Test
    void aBadHeartbeatClassValueIsAFileLineError() throws Exception {
        Path cfg = config("node1 says\n", "monitor:\n  interval: 10s\n  heartbeat_class: maybe\n");
        HbRun r = check(cfg);
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("jheartbeat.yaml:3: monitor: heartbeat_class: [maybe] is not yes or no")
                .doesNotContain("Exception");
    }
}
