package org.jheartbeat.cli.command;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --config-dir DIR} option shared by the commands that read this node's configuration
 * (ha.cf, authkeys, haresources, sync.yaml), default {@code /etc/ha.d} as in Heartbeat 3.0.6. Mixed
 * in with {@code @Mixin}; a command whose help says more about the directory gets its own wording from
 * the {@code config-dir} key of {@code HbMessages.properties}, qualified by the command's name.
 */
public final class ConfigDirOption {
    @Option(names = "--config-dir", paramLabel = "DIR", defaultValue = "/etc/ha.d", descriptionKey = "config-dir",
            description = "Configuration directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    /** The configuration directory given, or {@code /etc/ha.d}. */
    public Path path() {
        return dir;
    }
}
