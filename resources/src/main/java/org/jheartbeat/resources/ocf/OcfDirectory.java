package org.jheartbeat.resources.ocf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.resources.AgentNotFoundException;

/**
 * Where OCF agents live ({@code <ocfRoot>/resource.d/<provider>/<type>}, OCF resource-agent API
 * 1.0) and their meta-data, read once per agent and cached (the {@code meta-data} action must not
 * depend on the instance). Thread-safe.
 */
public final class OcfDirectory {
    /** Debian's {@code OCF_ROOT}. */
    public static final Path DEFAULT_ROOT = Path.of("/usr/lib/ocf");
    /** Limit for the {@code meta-data} action: 5 s (the agents declare 5 s). */
    public static final Duration METADATA_TIMEOUT = Duration.ofSeconds(5);

    private final Path root;
    private final ProcessRunner runner;
    private final Map<Path, OcfMetadata> cache = new ConcurrentHashMap<>();

    /**
     * @param root   {@code OCF_ROOT}, normally {@link #DEFAULT_ROOT}
     * @param runner runs {@code meta-data}
     */
    public OcfDirectory(Path root, ProcessRunner runner) {
        this.root = Objects.requireNonNull(root, "root");
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /** @return {@code OCF_ROOT} */
    public Path root() {
        return root;
    }

    /**
     * @param agent the resource
     * @return the agent's executable
     * @throws AgentNotFoundException naming the path looked at, if it is not a regular executable file
     */
    public Path locate(AgentRef.Ocf agent, String token) {
        Path p = root.resolve("resource.d").resolve(agent.provider()).resolve(agent.type());
        if (Files.isRegularFile(p) && Files.isExecutable(p)) {
            return p;
        }
        throw new AgentNotFoundException(token, List.of(p));
    }

    /**
     * @param agent the resource
     * @param token the haresources token, for messages
     * @return the agent's meta-data, cached after the first successful read
     * @throws AgentNotFoundException if the agent is missing
     * @throws OcfMetadataException   if {@code meta-data} fails, times out or prints no valid XML
     */
    public OcfMetadata metadata(AgentRef.Ocf agent, String token) {
        Path p = locate(agent, token);
        OcfMetadata cached = cache.get(p);
        if (cached != null) {
            return cached;
        }
        ProcessResult r;
        try {
            r = runner.run(new ProcessSpec(List.of(p.toString(), "meta-data"), OcfEnvironment.of(root,
                    new AgentRef.Ocf(agent.provider(), agent.type(), Map.of(), OperationTimeouts.NONE),
                    agent.type(), METADATA_TIMEOUT), METADATA_TIMEOUT));
        } catch (IOException e) {
            throw new OcfMetadataException("cannot run " + p + " meta-data: " + e.getMessage());
        }
        if (r.timedOut() || r.exitCode() != 0) {
            throw new OcfMetadataException(p + " meta-data " + (r.timedOut() ? "timed out" : "failed: "
                    + OcfExitCode.describe(r.exitCode())) + " " + r.stderr().strip());
        }
        OcfMetadata md;
        try {
            md = OcfMetadata.parse(r.stdout());
        } catch (OcfMetadataException e) {
            throw new OcfMetadataException(p + " meta-data: " + e.getMessage());
        }
        cache.put(p, md);
        return md;
    }
}
