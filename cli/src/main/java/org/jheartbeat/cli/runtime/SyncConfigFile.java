package org.jheartbeat.cli.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.sync.config.SyncConfig;
import org.jheartbeat.sync.config.SyncConfigException;
import org.jheartbeat.sync.config.SyncConfigParser;

/**
 * Reads {@code <config dir>/sync.yaml} for the daemon and the {@code hb sync}/{@code hb backup}
 * commands. The file is optional: without it there are no replication jobs and no backups.
 */
public final class SyncConfigFile {
    /** File name inside the config dir. */
    public static final String NAME = "sync.yaml";

    private SyncConfigFile() { }

    /**
     * @param configDir the config dir ({@code /etc/ha.d})
     * @param cluster   the cluster config when available: job groups are then resolved to group
     *                  keys and node names checked against ha.cf
     * @return the config; {@link SyncConfig#empty()} when the file does not exist
     * @throws UserException exit 2 with one line {@code sync.yaml:LINE: ...} per problem of the file (every
     *                       problem, not only the first) when the file is invalid
     */
    public static SyncConfig load(Path configDir, Optional<ClusterConfig> cluster) throws UserException {
        try {
            return parse(configDir, cluster);
        } catch (SyncConfigException e) {
            throw new UserException(ExitCodes.CONFIG, e.getMessage());
        }
    }

    /**
     * The problems of {@code <config dir>/sync.yaml} for {@code hb config check}, which counts each.
     *
     * @return one line {@code sync.yaml:LINE: ...} per problem; empty when the file is valid or absent
     */
    public static List<String> problems(Path configDir, Optional<ClusterConfig> cluster) {
        try {
            parse(configDir, cluster);
            return List.of();
        } catch (SyncConfigException e) {
            return e.diagnostics().stream().map(SyncConfigException::format).toList();
        }
    }

    private static SyncConfig parse(Path configDir, Optional<ClusterConfig> cluster) throws SyncConfigException {
        Path file = configDir.resolve(NAME);
        if (!Files.exists(file)) {
            return SyncConfig.empty();
        }
        return cluster.isPresent() ? SyncConfigParser.load(file, cluster.get()) : SyncConfigParser.parse(file);
    }
}
