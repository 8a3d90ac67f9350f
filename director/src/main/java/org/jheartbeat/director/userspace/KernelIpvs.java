package org.jheartbeat.director.userspace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this kernel has IPVS, to choose the table backend: {@code /proc/net/ip_vs} exists (the
 * module is loaded or built in), or the running kernel's {@code modules.builtin} or
 * {@code modules.dep} under {@code /lib/modules/RELEASE} lists {@code ip_vs.ko} (ipvsadm would
 * load it on first use).
 */
public final class KernelIpvs {
    private KernelIpvs() {
    }

    /** On this machine. */
    public static boolean present() {
        return present(Path.of("/"));
    }

    /**
     * @param root the file-system root to look under (tests pass a fake tree)
     * @return whether IPVS is there or loadable
     */
    public static boolean present(Path root) {
        if (Files.exists(root.resolve("proc/net/ip_vs"))) {
            return true;
        }
        try {
            String release = Files.readString(root.resolve("proc/sys/kernel/osrelease"), StandardCharsets.UTF_8)
                    .strip();
            Path dir = root.resolve("lib/modules").resolve(release);
            for (String f : new String[] {"modules.builtin", "modules.dep"}) {
                Path p = dir.resolve(f);
                if (Files.isRegularFile(p) && Files.readString(p, StandardCharsets.UTF_8).contains("/ip_vs.ko")) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }
}
