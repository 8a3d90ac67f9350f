package org.jheartbeat.cli.command;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.topology.DrTopology;
import org.jheartbeat.director.topology.IpJson;

/**
 * The I/O edge of the LVS-DR topology check ({@link DrTopology}) for {@code hb lvs check} and the director's
 * start: this host's {@code ip -j addr} once, and {@code ip -j route get RIP} for each distinct gate real, each
 * run with a 10 s limit. A host where {@code ip} cannot be run gets one warning saying the topology was not
 * checked, never an error: the file itself is fine.
 */
public final class DrTopologyProbe {
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final List<String> prefix;

    /**
     * @param prefix put before each {@code ip} command line (tests: {@code ip netns exec NS}); empty on a host
     */
    public DrTopologyProbe(List<String> prefix) {
        this.prefix = List.copyOf(prefix);
    }

    /** This host, as the director sees it. */
    public static DrTopologyProbe host() {
        return new DrTopologyProbe(List.of());
    }

    /** The topology warnings for {@code config}'s gate reals; none when it has no gate real. */
    public List<ConfigDiagnostic> warnings(LdirectordConfig config) {
        boolean anyGate = config.virtuals().stream().flatMap(v -> v.reals().stream())
                .anyMatch(r -> r.forward() == Forward.GATE);
        if (!anyGate) {
            return List.of();
        }
        List<IpJson.InterfaceAddress> addresses;
        try {
            addresses = IpJson.addresses(run(List.of("ip", "-j", "addr")));
        } catch (IOException e) {
            return List.of(ConfigDiagnostic.warning(config.file(), 0, "the LVS-DR topology was not checked: "
                    + e.getMessage() + "; install iproute2 or check the reals' segment by hand (docs/reference.md)"));
        }
        Map<InetAddress, Optional<IpJson.Route>> routes = new HashMap<>();
        return DrTopology.warnings(config, addresses, a -> routes.computeIfAbsent(a, this::route));
    }

    private Optional<IpJson.Route> route(InetAddress a) {
        try {
            return Optional.of(IpJson.route(run(List.of("ip", "-j", "route", "get", a.getHostAddress()))));
        } catch (IOException e) {
            return Optional.empty(); // "Network is unreachable": no route
        }
    }

    private String run(List<String> argv) throws IOException {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(argv);
        ProcessResult r;
        try {
            r = new OsProcessRunner().run(new ProcessSpec(all, Map.of(), LIMIT));
        } catch (IOException e) {
            throw new IOException(String.join(" ", argv) + " could not run (" + e.getMessage() + ")", e);
        }
        if (r.timedOut()) {
            throw new IOException(String.join(" ", argv) + " did not finish within " + LIMIT.toSeconds() + " s");
        }
        if (r.exitCode() != 0) {
            throw new IOException(String.join(" ", argv) + " failed (exit " + r.exitCode() + "): "
                    + r.stderr().strip());
        }
        return r.stdout();
    }
}
