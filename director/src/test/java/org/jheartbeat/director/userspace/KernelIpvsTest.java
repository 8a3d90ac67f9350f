package org.jheartbeat.director.userspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KernelIpvs} on fake trees: loaded, loadable as a module, built in, absent. */
class KernelIpvsTest {
    @TempDir
    Path root;

    @Test
    void findsIpvsLoadedLoadableOrBuiltIn() throws Exception {
        assertThat(KernelIpvs.present(root)).isFalse();
        Files.createDirectories(root.resolve("proc/sys/kernel"));
        Files.writeString(root.resolve("proc/sys/kernel/osrelease"), "6.1.0-test\n");
        Path mods = Files.createDirectories(root.resolve("lib/modules/6.1.0-test"));
        Files.writeString(mods.resolve("modules.dep"), "kernel/net/ipv4/tcp_bbr.ko:\n");
        assertThat(KernelIpvs.present(root)).isFalse();
        Files.writeString(mods.resolve("modules.dep"), "kernel/net/netfilter/ipvs/ip_vs.ko: kernel/x.ko\n");
        assertThat(KernelIpvs.present(root)).isTrue();
        Files.delete(mods.resolve("modules.dep"));
        Files.writeString(mods.resolve("modules.builtin"), "kernel/net/netfilter/ipvs/ip_vs.ko\n");
        assertThat(KernelIpvs.present(root)).isTrue();
        Files.delete(mods.resolve("modules.builtin"));
        Files.createDirectories(root.resolve("proc/net"));
        Files.writeString(root.resolve("proc/net/ip_vs"), "");
        assertThat(KernelIpvs.present(root)).isTrue();
    }
}
