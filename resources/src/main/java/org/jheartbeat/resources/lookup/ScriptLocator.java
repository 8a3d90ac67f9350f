package org.jheartbeat.resources.lookup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jheartbeat.resources.AgentNotFoundException;
import org.jheartbeat.resources.ResourceAgentException;

/**
 * Finds a resource script as Heartbeat 3.0.6 ResourceManager's {@code scriptpath}: first {@code
 * <resourceDir>/<name>} (normally {@code /etc/ha.d/resource.d}), then {@code <initDir>/<name>}
 * (normally {@code /etc/init.d}); the first candidate that is a regular, executable file wins.
 *
 * @param resourceDir the {@code resource.d} directory
 * @param initDir     the init scripts directory (injectable for tests)
 */
public record ScriptLocator(Path resourceDir, Path initDir) {
    public ScriptLocator {
        Objects.requireNonNull(resourceDir, "resourceDir");
        Objects.requireNonNull(initDir, "initDir");
    }

    /**
     * @param configDir the Heartbeat configuration directory, normally {@code /etc/ha.d}
     * @param initDir   the init scripts directory, normally {@code /etc/init.d}
     * @return a locator for {@code configDir/resource.d} then {@code initDir}
     */
    public static ScriptLocator of(Path configDir, Path initDir) {
        return new ScriptLocator(configDir.resolve("resource.d"), initDir);
    }

    /**
     * @param name     script name from the haresources token, e.g. {@code labweb}
     * @param resource the whole token, for the error message
     * @return the path of the script to run
     * @throws AgentNotFoundException naming the token and both paths looked in, if neither is a
     *         regular executable file
     * @throws ResourceAgentException if the name is empty or contains {@code /}
     */
    public Path locate(String name, String resource) {
        if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
            throw new ResourceAgentException("Bad resource script name [" + name + "] in " + resource);
        }
        List<Path> candidates = List.of(resourceDir.resolve(name), initDir.resolve(name));
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AgentNotFoundException(resource, candidates);
    }

    /**
     * @param name a script name (no {@code /})
     * @return whether {@link #locate} would find it: a regular executable file in either directory
     */
    public boolean exists(String name) {
        if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
            return false;
        }
        return List.of(resourceDir.resolve(name), initDir.resolve(name)).stream()
                .anyMatch(p -> Files.isRegularFile(p) && Files.isExecutable(p));
    }
}
