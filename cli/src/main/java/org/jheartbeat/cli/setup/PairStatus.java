package org.jheartbeat.cli.setup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads a node's {@code hb status --json} answer (schema {@code jheartbeat.status/1}, see
 * {@code StatusSnapshot.toJson}) for what {@code hb setup} waits for: the other node listed as {@code active},
 * then every resource group running somewhere, or one that failed.
 */
public final class PairStatus {
    /** A group's {@code state_here} while it is moving on this node. */
    private static final Set<String> MOVING = Set.of("starting", "stopping");

    private PairStatus() {
    }

    /**
     * Whether {@code statusJson} lists node {@code other} with status {@code active} (heard, and done with its
     * start-up exchange).
     */
    public static boolean seesActive(String statusJson, String other) {
        // the daemon writes compact JSON, name then status in each node object
        return Pattern.compile("\\{\"name\":\"" + Pattern.quote(other) + "\",\"status\":\"active\"")
                .matcher(statusJson).find();
    }

    /**
     * Where the groups of a status answer are.
     *
     * @param settled  every group runs on a node (its {@code running_on}) and none is starting or stopping here,
     *                 or a group has a problem
     * @param problems per group with a {@code problem}: {@code KEY: PROBLEM}
     */
    public record Groups(boolean settled, List<String> problems) {
        public Groups {
            problems = List.copyOf(problems);
        }
    }

    /**
     * The groups of {@code statusJson}: a pair that sees itself can still fail to start its group (a service
     * that does not start); {@code hb setup} reports that rather than "running".
     *
     * @throws IllegalArgumentException when the text is not a JSON object
     */
    @SuppressWarnings("unchecked")
    public static Groups groups(String statusJson) {
        LoaderOptions o = new LoaderOptions();
        o.setCodePointLimit(4 << 20);
        // JSON is YAML: the safe loader reads it into maps and lists
        Object v = new Yaml(new SafeConstructor(o)).load(statusJson);
        if (!(v instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        boolean settled = true;
        List<String> problems = new ArrayList<>();
        Object gs = m.get("groups");
        for (Object x : gs instanceof List<?> l ? l : List.of()) {
            if (!(x instanceof Map<?, ?>)) {
                continue;
            }
            Map<String, Object> g = (Map<String, Object>) x;
            if (g.get("problem") instanceof String p && !p.isEmpty()) {
                problems.add(g.get("key") + ": " + p);
            }
            if (g.get("running_on") == null || MOVING.contains(String.valueOf(g.get("state_here")))) {
                settled = false;
            }
        }
        return new Groups(settled || !problems.isEmpty(), problems);
    }
}
