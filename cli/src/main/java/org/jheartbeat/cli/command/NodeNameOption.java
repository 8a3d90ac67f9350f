package org.jheartbeat.cli.command;

import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --node-name NAME} option: which node of ha.cf this machine is, for the daemon and the
 * commands that act as this node. Without it each command has its own fallback ({@code uname -n}, as
 * is or lowercased, or the name the daemon would take). Mixed in with {@code @Mixin}; a command whose
 * help says more gets its own wording from the {@code node-name} key of {@code HbMessages.properties},
 * qualified by the command's name.
 */
public final class NodeNameOption {
    @Option(names = "--node-name", paramLabel = "NAME", descriptionKey = "node-name",
            description = "This node's name (default: uname -n).")
    String name;

    /** The name given, as written; empty when the option is absent. */
    public Optional<String> value() {
        return Optional.ofNullable(name);
    }
}
