package org.jheartbeat.resources.group;

import java.util.List;
import java.util.Objects;

/**
 * The result of starting or stopping one resource group.
 *
 * @param success  {@code true} if every resource ended in the wanted state
 * @param outcomes per-resource outcomes in the order they happened (for a failed start: the
 *                 starts, then the rollback stops)
 * @param message  one line for operators, naming the failing resource(s) and reason on failure
 */
public record GroupResult(boolean success, List<ResourceOutcome> outcomes, String message) {
    public GroupResult {
        outcomes = List.copyOf(outcomes);
        Objects.requireNonNull(message, "message");
    }

    /**
     * @param step a step kind
     * @return the tokens of the outcomes with that step, in order
     */
    public List<String> tokens(ResourceStep step) {
        return outcomes.stream().filter(o -> o.step() == step).map(o -> o.resource().token()).toList();
    }

    /**
     * What a failed start left running here: the resources whose rollback stop failed ({@code Resource
     * STOP failure}) and those found running before the start, which the rollback leaves alone. Non-empty
     * means the group must not be started on the peer (it is blocked here, as after a failed stop).
     *
     * @return the tokens, in the order of the outcomes; empty after a success, a rollback that stopped
     *         everything, or for the result of a stop
     */
    public List<String> leftRunningByFailedStart() {
        if (success || tokens(ResourceStep.START_FAILED).isEmpty()) {
            return List.of();
        }
        return outcomes.stream().filter(o -> o.step() == ResourceStep.STOP_FAILED || o.step() == ResourceStep.ALREADY_RUNNING)
                .map(o -> o.resource().token()).toList();
    }
}
