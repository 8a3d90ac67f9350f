package org.jheartbeat.resources.group;

import java.util.Objects;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.resources.AgentResult;

/**
 * What happened to one resource during a group start or stop.
 *
 * @param resource the resource token
 * @param step     what the runner did
 * @param result   the last agent result behind that step
 * @param attempts how many start or stop invocations were made (0 if none, e.g. ALREADY_RUNNING)
 */
public record ResourceOutcome(ResourceSpec resource, ResourceStep step, AgentResult result, int attempts) {
    public ResourceOutcome {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(result, "result");
    }

    @Override
    public String toString() {
        return resource.token() + " " + step + " (" + result + ", attempts=" + attempts + ")";
    }
}
