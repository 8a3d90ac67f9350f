package org.jheartbeat.cli.command;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --state-dir DIR} option shared by the daemon and the commands that talk to it through
 * its control socket, default {@code /var/lib/jheartbeat}. Mixed in with {@code @Mixin}; a command
 * whose help says more about the directory gets its own wording from the {@code state-dir} key of
 * {@code HbMessages.properties}, qualified by the command's name.
 */
public final class StateDirOption {
    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat", descriptionKey = "state-dir",
            description = "The daemon's state directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    /** The state directory given, or {@code /var/lib/jheartbeat}. */
    public Path path() {
        return dir;
    }
}
