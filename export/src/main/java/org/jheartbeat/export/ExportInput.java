package org.jheartbeat.export;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.StonithDecl;
import org.jheartbeat.sync.config.SyncConfig;

/**
 * Everything {@link PacemakerExporter} reads, gathered by the command from the config directory and
 * this machine, so that the conversion itself touches no file and runs no program.
 *
 * @param config          the loaded, valid configuration (ha.cf, authkeys, haresources)
 * @param haCfText        ha.cf as written (for the line-by-line report)
 * @param haresourcesText haresources as written
 * @param authkeysText    authkeys as written
 * @param sync            sync.yaml, if the file exists
 * @param syncYaml        sync.yaml as written, if it exists
 * @param monitorDefaults the {@code monitor:} section of jheartbeat.yaml ({@link OperationTimeouts#NONE} if none)
 * @param jheartbeatYaml  jheartbeat.yaml as written, if it exists
 * @param fenceDelay      jheartbeat.yaml {@code stonith: fence_delay} (its default when absent); zero: none
 * @param resourceDScripts the names of the files in the config directory's {@code resource.d}
 * @param stonithParams   each STONITH line's parameters by name ({@link StonithParams})
 * @param nodeAddresses   node name to its address on each UDP link, in link order, as given with
 *                        {@code --node-address}; may be partial
 * @param localNode       the node this machine is (its ucast lines name the peer), if known
 * @param localAddresses  this machine's IPv4 address per interface name, used for the local node's
 *                        addresses when {@code localNode} is present
 * @param clusterName     corosync {@code cluster_name}
 */
public record ExportInput(ClusterConfig config, String haCfText, String haresourcesText, String authkeysText,
                          Optional<SyncConfig> sync, Optional<String> syncYaml, OperationTimeouts monitorDefaults,
                          Optional<String> jheartbeatYaml, java.time.Duration fenceDelay, Set<String> resourceDScripts, StonithParams stonithParams,
                          Map<String, List<String>> nodeAddresses, Optional<String> localNode,
                          Map<String, String> localAddresses, String clusterName) {
    public ExportInput {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(haCfText, "haCfText");
        Objects.requireNonNull(haresourcesText, "haresourcesText");
        Objects.requireNonNull(authkeysText, "authkeysText");
        Objects.requireNonNull(sync, "sync");
        Objects.requireNonNull(syncYaml, "syncYaml");
        Objects.requireNonNull(monitorDefaults, "monitorDefaults");
        Objects.requireNonNull(jheartbeatYaml, "jheartbeatYaml");
        Objects.requireNonNull(fenceDelay, "fenceDelay");
        resourceDScripts = Set.copyOf(resourceDScripts);
        Objects.requireNonNull(stonithParams, "stonithParams");
        nodeAddresses = Map.copyOf(nodeAddresses);
        Objects.requireNonNull(localNode, "localNode");
        localAddresses = Map.copyOf(localAddresses);
        Objects.requireNonNull(clusterName, "clusterName");
    }

    /** Names a STONITH device's positional parameters (cluster-glue {@code stonith -t TYPE -n}). */
    @FunctionalInterface
    public interface StonithParams {
        /**
         * @param decl one {@code stonith} or {@code stonith_host} line
         * @return parameter name to value, in the device's order
         * @throws IllegalArgumentException when the device type is unknown or a parameter is missing
         */
        Map<String, String> of(StonithDecl decl);
    }
}
