package org.jheartbeat.stonith.device.apcsmart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration checks and names of {@link ApcSmartDevice} (no serial I/O). */
class ApcSmartDeviceConfigTest {
    @TempDir
    Path dir;

    @Test
    void namesAsClusterGlue() {
        ApcSmartDevice d = new ApcSmartDevice();
        assertThat(d.type()).isEqualTo("apcsmart");
        assertThat(d.configNames()).containsExactly("ttydev", "hostlist");
    }

    @Test
    void missingTtyIsRejected() {
        assertThatThrownBy(() -> new ApcSmartDevice().configure(Map.of("ttydev", "/nonexistent", "hostlist", "a")))
                .isInstanceOf(StonithConfigException.class).hasMessage("apcsmart: ttydev /nonexistent does not exist");
    }

    @Test
    void regularFileIsNotATty() throws Exception {
        Path f = Files.createFile(dir.resolve("ttyS9"));
        assertThatThrownBy(() -> new ApcSmartDevice().configure(Map.of("ttydev", f.toString(), "hostlist", "a")))
                .isInstanceOf(StonithConfigException.class).hasMessageContaining("is not a character device");
    }

    @Test
    void emptyHostListIsRejected() {
        assertThatThrownBy(() -> new ApcSmartDevice().configure(Map.of("ttydev", "/dev/null", "hostlist", " , ")))
                .isInstanceOf(StonithConfigException.class).hasMessage("apcsmart: parameter hostlist names no host");
    }

    @Test
    void hostListSplitAndLowerCasedAndBadHostRefused() throws Exception {
        ApcSmartDevice d = new ApcSmartDevice();
        d.configure(Map.of("ttydev", "/dev/null", "hostlist", "NodeB,nodec\tnodeD"));
        assertThat(d.hostList()).containsExactly("nodeb", "nodec", "noded");
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodex")).isEqualTo(StonithResult.BADHOST);
    }

    @Test
    void unconfiguredIsInval() {
        assertThat(new ApcSmartDevice().status()).isEqualTo(StonithResult.INVAL);
    }

    @Test
    void lockNameAsClusterGlueTtyLock() {
        assertThat(ApcSmartDevice.lockName("/dev/ttyS1")).isEqualTo("LCK..ttyS1");
        assertThat(ApcSmartDevice.lockName("/dev/pts/5")).isEqualTo("LCK..pts5");
        assertThat(ApcSmartDevice.lockName("/run/ups/ttyUPS")).isEqualTo("LCK..upsttyUPS");
    }
}
