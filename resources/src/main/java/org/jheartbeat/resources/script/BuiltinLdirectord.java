package org.jheartbeat.resources.script;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The built-in Heartbeat resource {@code ldirectord[::CONFIG]} (haresources, as Heartbeat v1 names
 * it: {@code node VIP ldirectord::ldirectord.cf}): when {@code resource.d} has no {@code ldirectord}
 * script of its own (Debian's ldirectord package installs one, and it then wins), the jheartbeat
 * package's ldirectord-compatible wrapper runs instead, {@code /usr/lib/jheartbeat/ldirectord CONFIG
 * start|stop|status}, which runs {@code hb lvs daemon}.
 */
public final class BuiltinLdirectord {
    /** The resource name. */
    public static final String NAME = "ldirectord";
    /** Where the package installs the wrapper; the system property {@code jheartbeat.ldirectord} overrides it (tests). */
    public static final String DEFAULT_WRAPPER = "/usr/lib/jheartbeat/ldirectord";

    private BuiltinLdirectord() {
    }

    /** The wrapper, if installed (a regular executable file). */
    public static Optional<Path> locate() {
        Path p = Path.of(System.getProperty("jheartbeat.ldirectord", DEFAULT_WRAPPER));
        return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
}
