package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files whose contents run as root are refused by {@code hb config check}, at daemon start and by
 * {@code hb lvs check} when group or others may write them (real files, real modes).
 */
class RootFilesCheckTest {
    @TempDir
    Path dir;

    private Path config() throws Exception {
        Path cfg = ConfigDirBuilder.validHere().writeTo(dir.resolve("cfg"));
        Files.writeString(cfg.resolve("sync.yaml"), "jobs: {}\n");
        Files.writeString(cfg.resolve("jheartbeat.yaml"), "monitor:\n  interval: 10s\n");
        Path script = Files.createDirectories(cfg.resolve("resource.d")).resolve("labweb");
        Files.writeString(script, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return cfg;
    }

    private static void chmod(Path p, String mode) throws Exception {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    }

    @ParameterizedTest
    @ValueSource(strings = {"haresources", "sync.yaml", "jheartbeat.yaml", "resource.d/labweb", "ha.cf", "resource.d"})
    void configCheckRefusesAFileOthersMayWrite(String name) throws Exception {
        Path cfg = config();
        Path f = cfg.resolve(name);
        chmod(f, Files.isDirectory(f) ? "rwxrwxr-x" : name.startsWith("resource.d/") ? "rwxrwxr-x" : "rw-rw-r--");
        HbRun r = HbRun.hb("config", "check", "--syntax-only", "--config-dir", cfg.toString(), "--node-name", "node1");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.out() + r.err()).contains(f + ":0: ").contains(" is mode " + (Files.isDirectory(f) ? "775" : name
                .startsWith("resource.d/") ? "775" : "664") + ", writable by others than root").contains("chmod go-w " + f)
                .doesNotContain("Exception");
    }

    @Test
    void configCheckAcceptsTheSameFilesWritableByRootOnly() throws Exception {
        Path cfg = config();
        HbRun r = HbRun.hb("config", "check", "--syntax-only", "--config-dir", cfg.toString(), "--node-name", "node1");
        assertThat(r.out() + r.err()).doesNotContain("writable by others");
    }

    @Test
    void theDaemonDoesNotStartWithAHaresourcesOthersMayWrite() throws Exception {
        Path cfg = config();
        chmod(cfg.resolve("haresources"), "rw-r--rw-");
        HbRun r = HbRun.hb("daemon", "--config-dir", cfg.toString(), "--state-dir", dir.resolve("state").toString(),
                "--node-name", "node1");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":0: haresources is mode 646").contains("not starting");
    }

    /** The state directory's groups file is released as root at start: a directory others may write is refused. */
    @Test
    void theDaemonDoesNotStartWithAStateDirectoryOthersMayWrite() throws Exception {
        Path cfg = config();
        Path state = Files.createDirectories(dir.resolve("state"));
        chmod(state, "rwxrwxrwx");
        HbRun r = HbRun.hb("daemon", "--config-dir", cfg.toString(), "--state-dir", state.toString(),
                "--node-name", "node1");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(state + ":0: the state directory is mode 777, writable by others than root")
                .contains("chmod go-w " + state).contains("not starting").doesNotContain("Exception");
    }

    @Test
    void lvsCheckRefusesAnLdirectordCfOthersMayWrite() throws Exception {
        Path f = Files.writeString(dir.resolve("ldirectord.cf"), "checktimeout=3\nvirtual=198.18.0.100:80\n"
                + "\treal=198.18.0.21:80 gate\n\tservice=http\n\tprotocol=tcp\n\tchecktype=connect\n");
        chmod(f, "rw-rw-r--");
        HbRun r = HbRun.hb("lvs", "check", f.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(f + ":0: ldirectord.cf is mode 664, writable by others than root")
                .contains("chmod go-w " + f);
        chmod(f, "rw-r--r--");
        assertThat(HbRun.hb("lvs", "check", f.toString()).code()).isZero();
    }
}
