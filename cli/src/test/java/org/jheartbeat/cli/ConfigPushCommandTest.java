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
 * {@code hb config push}: what it refuses before any ssh is run (each one line, no stack trace).
 * The pushing itself is tested in the lab ({@code ConfigPushIT}) with a real sshd.
 */
class ConfigPushCommandTest {
    @TempDir
    Path dir;

    private static void oneCleanLine(HbRun r, int code, String text) {
        assertThat(r.code()).as(r.err()).isEqualTo(code);
        assertThat(r.err()).contains(text).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.err().strip().lines()).hasSize(1);
    }

    @Test
    void anInvalidConfigIsNotPushed() {
        Path cfg = ConfigDirBuilder.validTwoNode().haCfReplace("deadtime 3", "deadtime 1").writeTo(dir);
        HbRun r = HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--to", "198.18.1.2", "--yes");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("ha.cf:2: ").contains("is not a valid configuration (see hb config check --syntax-only);"
                + " nothing pushed").doesNotContain("Exception");
    }

    @Test
    void anInvalidSyncYamlIsNotPushed() throws Exception {
        Path cfg = ConfigDirBuilder.validTwoNode().writeTo(dir);
        Files.writeString(cfg.resolve("sync.yaml"), "jobs:\n  web:\n    group: nosuchgroup\n    paths: [/srv/web]\n"
                + "    target: /mnt/replica\n");
        HbRun r = HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--to", "198.18.1.2", "--dry-run");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("sync.yaml:2: job web: group [nosuchgroup] is not a resource group")
                .contains("sync.yaml is not valid (see hb config check --syntax-only); nothing pushed")
                .doesNotContain("Exception");
    }

    @Test
    void anAuthkeysNotMode600IsNotPushed() throws Exception {
        Path cfg = ConfigDirBuilder.validTwoNode().authkeysMode("400").writeTo(dir);
        HbRun r = HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--to", "198.18.1.2", "--dry-run");
        oneCleanLine(r, ExitCodes.CONFIG, "authkeys is mode 400; it must be 600 before it is pushed: chmod 600 ");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cfg.resolve("authkeys")))).isEqualTo("r--------");
    }

    @Test
    void badArgumentsAreUsageErrors() {
        Path cfg = ConfigDirBuilder.validTwoNode().writeTo(dir);
        oneCleanLine(HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--to", "-oProxyCommand=x"),
                ExitCodes.USAGE, "--to '-oProxyCommand=x' is not a host name or address");
        oneCleanLine(HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--to", "p", "--file", "passwd"),
                ExitCodes.USAGE, "--file passwd: not one of ha.cf, authkeys, haresources, sync.yaml");
        oneCleanLine(HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--to", "p", "--remote-dir", "etc"),
                ExitCodes.USAGE, "--remote-dir must be an absolute path (got 'etc')");
        oneCleanLine(HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--to", "p", "--ssh", " "),
                ExitCodes.USAGE, "--ssh is empty");
    }

    @Test
    void withoutToThePeerIsTheOtherNodeOfHaCfAndMustResolve() {
        Path cfg = ConfigDirBuilder.validTwoNode().haCfReplace("node node2", "node jhb-no-such-peer.invalid").writeTo(dir);
        oneCleanLine(HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--node-name", "node1", "--dry-run"),
                ExitCodes.FAILURE, "the peer's name jhb-no-such-peer.invalid (from ha.cf) does not resolve on this machine;"
                        + " pass --to ADDRESS");
        oneCleanLine(HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--node-name", "node7", "--dry-run"),
                ExitCodes.USAGE, "cannot tell the peer: this machine is node7");
    }

    @Test
    void aMissingSshIsOneLine() {
        Path cfg = ConfigDirBuilder.validTwoNode().writeTo(dir);
        oneCleanLine(HbRun.hb("config", "push", "--config-dir", cfg.toString(), "--to", "198.18.1.2", "--ssh",
                "/nonexistent/ssh -o BatchMode=yes", "--dry-run"), ExitCodes.FAILURE, "cannot run /nonexistent/ssh");
    }
}
