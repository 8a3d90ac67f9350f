package org.jheartbeat.cli.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
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
     * @throws UserException exit 2 with {@code sync.yaml:LINE: ...} when the file is invalid
     */
    public static SyncConfig load(Path configDir, Optional<ClusterConfig> cluster) throws UserException {
        Path file = configDir.resolve(NAME);
        if (!Files.exists(file)) {
            return SyncConfig.empty();
        }
        try {
            SyncConfig cfg = SyncConfigParser.parse(file);
            return cluster.isPresent() ? SyncConfigParser.resolve(cfg, cluster.get()) : cfg;
        } catch (SyncConfigException e) {
            throw new UserException(ExitCodes.CONFIG, e.getMessage());
        }
    }
}
