package org.jheartbeat.sync.replication;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.sync.config.ReplicationJobSpec;

/** Job specs for tests. */
final class Jobs {
    private Jobs() {
    }

    static ReplicationJobSpec pathJob(String name, String group, List<Path> paths, Path target, boolean delete,
                                      boolean requireMount, double maxLoss, int retries, List<String> opts) {
        return new ReplicationJobSpec(name, group, paths, Optional.ofNullable(target), "*/5 * * * *", delete, opts,
                requireMount, maxLoss, retries, Duration.ofSeconds(30), Duration.ofMinutes(2), 0);
    }

    static ReplicationJobSpec simple(String name, Path src, Path target) {
        return pathJob(name, "g", List.of(src), target, true, false, 0.5, 2, List.of());
    }
}
