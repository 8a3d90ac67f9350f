package org.jheartbeat.stonith.device.fenceagent;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Finds fence agents: executables named {@code fence_*} in the directories of {@code PATH} and in
 * {@code /usr/sbin} (where Debian's fence-agents installs them, and which is often missing from a
 * non-root PATH).
 */
public final class FenceAgents {
    /** Always searched after PATH. */
    public static final Path SBIN = Path.of("/usr/sbin");

    private FenceAgents() {
    }

    /** The search path: PATH entries, then /usr/sbin, without duplicates. */
    public static List<Path> searchPath() {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                if (!d.isEmpty() && !dirs.contains(Path.of(d))) {
                    dirs.add(Path.of(d));
                }
            }
        }
        if (!dirs.contains(SBIN)) {
            dirs.add(SBIN);
        }
        return dirs;
    }

    /**
     * @param agent the agent's file name, {@code fence_<x>}; no {@code /}
     * @param dirs  where to look, in order
     * @return the first regular executable file of that name
     */
    public static Optional<Path> locate(String agent, List<Path> dirs) {
        if (agent.contains("/")) {
            return Optional.empty();
        }
        return dirs.stream().map(d -> d.resolve(agent))
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
    }

    /** @return sorted names ({@code fence_<x>}) of the agents in {@code dirs}; unreadable dirs are skipped */
    public static List<String> installed(List<Path> dirs) {
        TreeSet<String> names = new TreeSet<>();
        for (Path d : dirs) {
            try (Stream<Path> files = Files.list(d)) {
                files.filter(p -> p.getFileName().toString().startsWith("fence_"))
                        .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
                        .forEach(p -> names.add(p.getFileName().toString()));
            } catch (IOException | SecurityException e) {
                // a PATH entry that does not exist or cannot be read has no agents
            }
        }
        return List.copyOf(names);
    }
}
