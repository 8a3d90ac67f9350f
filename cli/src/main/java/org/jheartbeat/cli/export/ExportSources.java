package org.jheartbeat.cli.export;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.config.JheartbeatYaml;
import org.jheartbeat.cli.runtime.SyncConfigFile;
import org.jheartbeat.stonith.fencing.StonithSetup;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.StonithDecl;
import org.jheartbeat.export.ExportInput;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.registry.StonithDevices;

/**
 * Gathers an {@link ExportInput} from a loaded configuration's directory and this machine: the raw
 * files (for the report), sync.yaml and jheartbeat.yaml (with the loaders {@code hb config check}
 * uses), the names in {@code resource.d}, and each STONITH line's parameters named as the daemon
 * names them ({@link StonithDevices#positional}). The I/O edge before the pure
 * {@link org.jheartbeat.export.PacemakerExporter}; it stays in cli because it loads sync.yaml and
 * jheartbeat.yaml with cli's loaders ({@code hb config check}'s).
 */
public final class ExportSources {
    private ExportSources() {
    }

    /**
     * @param config         the loaded configuration (its directory is read)
     * @param nodeAddresses  {@code --node-address} values
     * @param localNode      the node this machine is, if any
     * @param localAddresses this machine's IPv4 address per interface ({@link #localAddresses()})
     * @param clusterName    corosync cluster_name
     * @throws UserException exit 2 when sync.yaml or jheartbeat.yaml is invalid ({@code file:line: ...})
     * @throws IOException   when a file cannot be read
     */
    public static ExportInput read(ClusterConfig config, Map<String, List<String>> nodeAddresses,
                                   Optional<String> localNode, Map<String, String> localAddresses, String clusterName)
            throws UserException, IOException {
        Path dir = config.configDir();
        var sync = SyncConfigFile.load(dir, Optional.of(config));
        JheartbeatYaml yaml = JheartbeatYaml.load(dir, Optional.of(config));
        return new ExportInput(config, read(dir.resolve("ha.cf")), read(dir.resolve("haresources")),
                read(dir.resolve("authkeys")),
                Files.exists(dir.resolve(SyncConfigFile.NAME)) ? Optional.of(sync) : Optional.empty(),
                Files.exists(dir.resolve(SyncConfigFile.NAME)) ? Optional.of(read(dir.resolve(SyncConfigFile.NAME)))
                        : Optional.empty(),
                yaml.monitorDefaults(),
                Files.exists(dir.resolve(JheartbeatYaml.NAME)) ? Optional.of(read(dir.resolve(JheartbeatYaml.NAME)))
                        : Optional.empty(),
                yaml.fencing().fenceDelay(), resourceD(dir), ExportSources::stonithParams, nodeAddresses, localNode, localAddresses, clusterName);
    }

    /** This machine's first IPv4 address per interface name; empty if none can be read. */
    public static Map<String, String> localAddresses() {
        Map<String, String> m = new LinkedHashMap<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    if (a instanceof Inet4Address) {
                        m.putIfAbsent(ni.getName(), a.getHostAddress());
                    }
                }
            }
        } catch (SocketException e) {
            // no interfaces readable: addresses must come from ha.cf or --node-address
        }
        return m;
    }

    private static Set<String> resourceD(Path dir) throws IOException {
        Path rd = dir.resolve("resource.d");
        Set<String> names = new TreeSet<>();
        if (Files.isDirectory(rd)) {
            try (Stream<Path> s = Files.list(rd)) {
                s.filter(Files::isRegularFile).forEach(p -> names.add(p.getFileName().toString()));
            }
        }
        return names;
    }

    /** The STONITH line's parameters by name, as the daemon would configure the device. */
    static Map<String, String> stonithParams(StonithDecl d) {
        try {
            List<String> words = d.params();
            if (d.configFile().isPresent()) {
                words = StonithSetup.readParamFile(d.configFile().get());
            }
            StonithDevice device = StonithDevices.create(d.type());
            try {
                return StonithDevices.positional(device, words);
            } finally {
                device.close();
            }
        } catch (StonithConfigException | IOException ex) {
            throw new IllegalArgumentException(ex.getMessage());
        }
    }

    private static String read(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    }
}
