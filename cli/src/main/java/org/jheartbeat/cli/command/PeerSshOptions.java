package org.jheartbeat.cli.command;

import picocli.CommandLine.Option;

/**
 * How a command reaches the peer node over ssh, as {@code hb config push} does: {@code --peer HOST} (default:
 * the other node of ha.cf), {@code --ssh CMD} and {@code --remote-hb CMD}, the {@code hb} command run there.
 * Mixed in with {@code @Mixin} by the commands that read the peer ({@code hb report}, {@code hb web}), so the
 * options have one name and one meaning everywhere.
 */
public final class PeerSshOptions {
    @Option(names = "--peer", paramLabel = "HOST", descriptionKey = "peer", description = "The peer's address or name (default: the other"
            + " node of ha.cf).")
    String peer;

    @Option(names = "--ssh", paramLabel = "CMD", defaultValue = ConfigPushCommand.DEFAULT_SSH,
            description = "The ssh command that reaches the peer, split on blanks (default: ${DEFAULT-VALUE}).")
    String ssh;

    @Option(names = "--remote-hb", paramLabel = "CMD", defaultValue = "hb",
            description = "The hb command on the peer (default: ${DEFAULT-VALUE}).")
    String remoteHb;
}
