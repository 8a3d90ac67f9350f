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
}
