package org.jheartbeat.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MountTableTest {
    private static final String SAMPLE = String.join("\n",
            "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
            "36 22 7:3 / /mnt/jhb\\040backup rw,nosuid,nodev,relatime shared:40 - ext4 /dev/loop3 rw",
            "37 22 0:5 / /proc rw,nosuid - proc proc rw",
            "garbage line",
            "40 36 7:4 / /mnt/jhb\\040backup ro,relatime - ext4 /dev/loop4 ro", "");

    @Test
    void parsesFieldsAndDecodesOctalEscapes() {
        List<MountTable.Entry> e = MountTable.parse(SAMPLE);
        assertThat(e).hasSize(4);
        assertThat(e.get(1)).isEqualTo(new MountTable.Entry("7:3", Path.of("/mnt/jhb backup"), "ext4", "/dev/loop3",
                "rw,nosuid,nodev,relatime"));
        assertThat(e.get(1).readOnly()).isFalse();
        assertThat(e.get(3).readOnly()).isTrue();
        assertThat(e.get(2).fsType()).isEqualTo("proc");
    }

    @Test
    void theLastMountOnADirectoryIsTheVisibleOne() {
        List<MountTable.Entry> e = MountTable.parse(SAMPLE);
        assertThat(MountTable.topAt(e, Path.of("/mnt/jhb backup")).map(MountTable.Entry::majorMinor)).contains("7:4");
        assertThat(MountTable.topAt(e, Path.of("/mnt"))).isEmpty();
        assertThat(MountTable.topAt(e, Path.of("/")).map(MountTable.Entry::source)).contains("/dev/sda1");
    }

    @Test
    void majorMinorOfARealDeviceNode() throws Exception {
        // /dev/null is character device 1:3 on every Linux system (Documentation/admin-guide/devices.txt)
        assertThat(MountTable.majorMinor(Path.of("/dev/null"))).isEqualTo("1:3");
    }
}
