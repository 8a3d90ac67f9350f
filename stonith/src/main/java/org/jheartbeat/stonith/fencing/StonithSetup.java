package org.jheartbeat.stonith.fencing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.StonithDecl;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.registry.StonithDevices;
import org.jheartbeat.stonith.StonithResult;

/**
 * Builds this node's STONITH device from ha.cf ({@code stonith TYPE FILE} or {@code stonith_host
 * FROM TYPE PARAMS…}, the last line usable from this node, as Heartbeat 3.0.6 picks it), checks it
 * (type, parameters, host list covering the peer, the device answering a status request) and
 * reports problems as {@code ha.cf:line:} diagnostics, so {@code hb config check} and daemon start
 * refuse a device that cannot fence.
 */
public final class StonithSetup {
    private StonithSetup() {
    }

    /** A configured device, or the diagnostics that explain why there is none. */
    public record Outcome(Optional<StonithDevice> device, Optional<StonithDecl> decl, List<ConfigDiagnostic> problems) {
        public boolean failed() {
            return problems.stream().anyMatch(ConfigDiagnostic::isError);
        }
    }

    /**
     * @param checkStatus whether to ask the device for its status (contacts the hardware: seconds)
     */
    public static Outcome open(ClusterConfig config, NodeName me, boolean checkStatus) {
        Optional<StonithDecl> found = config.stonithFor(me);
        if (found.isEmpty()) {
            List<ConfigDiagnostic> none = config.stonith().isEmpty() ? List.of()
                    : List.of(ConfigDiagnostic.warning(config.configDir().resolve("ha.cf"), config.stonith().get(0).line(),
                            "no STONITH device is usable from " + me + " (every stonith_host line names another"
                            + " node): " + me + " will take over without fencing"));
            return new Outcome(Optional.empty(), Optional.empty(), none);
        }
        StonithDecl decl = found.get();
        Path haCf = config.configDir().resolve("ha.cf");
        StonithDevice device = null;
        try {
            List<String> words = decl.params();
            if (decl.configFile().isPresent()) {
                words = readParamFile(decl.configFile().get());
            }
            device = StonithDevices.create(decl.type());
            device.configure(StonithDevices.positional(device, words));
            Optional<NodeName> peer = config.peerOf(me);
            List<String> hosts = device.hostList();
            if (peer.isPresent() && !hosts.isEmpty() && !hosts.contains(peer.get().value())) {
                throw new StonithConfigException("STONITH device " + decl.type() + " cannot fence " + peer.get()
                        + " (its host list is " + hosts + "); list the peer in its parameters");
            }
            if (checkStatus) {
                StonithResult st = device.status();
                if (!st.ok()) {
                    throw new StonithConfigException("STONITH device " + decl.type() + " does not answer a status"
                            + " request (" + st + "); check its cable, power and parameters");
                }
            }
            return new Outcome(Optional.of(device), found, List.of());
        } catch (StonithConfigException | IOException e) {
            if (device != null) {
                device.close();
            }
            return new Outcome(Optional.empty(), found, List.of(ConfigDiagnostic.error(haCf, decl.line(), e.getMessage())));
        }
    }

    /**
     * The parameters of a STONITH device's parameter file (heartbeat's {@code stonith -F}): the first
     * line that is neither blank nor a {@code #} comment, split at blanks and tabs.
     *
     * @throws IOException if the file is missing, not a regular file, unreadable, or has no such line
     */
    public static List<String> readParamFile(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("STONITH parameter file " + file + " does not exist or is not a file");
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String t = line.strip();
            if (!t.isEmpty() && !t.startsWith("#")) {
                return Arrays.asList(t.split("[ \\t]+"));
            }
        }
        throw new IOException("STONITH parameter file " + file + " has no parameter line");
    }
}
