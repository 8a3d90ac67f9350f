package org.jheartbeat.resources.fakes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.resources.AgentNotFoundException;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.ResourceAgents;

/**
 * {@link ResourceAgents} handing out one {@link FakeAgent} per resource token, created on first
 * use and sharing one journal. Tokens marked {@link #missing(String)} throw
 * {@link AgentNotFoundException}.
 */
public final class FakeAgents implements ResourceAgents {
    private final List<String> journal = new ArrayList<>();
    private final Map<String, FakeAgent> agents = new HashMap<>();
    private final Set<String> missing = new HashSet<>();

    /** @param token resource token @return its fake, created if needed */
    public FakeAgent agent(String token) {
        return agents.computeIfAbsent(token, t -> new FakeAgent(t, journal));
    }

    /** @param token resource token whose agent lookup must fail @return this */
    public FakeAgents missing(String token) {
        missing.add(token);
        return this;
    }

    /** @return the calls made so far, e.g. {@code ["status a", "start a"]} (live list) */
    public List<String> journal() {
        return journal;
    }

    /** @param op operation prefix such as {@code "start"} @return the journal entries for it */
    public List<String> calls(String op) {
        return journal.stream().filter(c -> c.startsWith(op + " ")).toList();
    }

    @Override
    public ResourceAgent forSpec(ResourceSpec spec) {
        if (missing.contains(spec.token())) {
            throw new AgentNotFoundException(spec.token(),
                    List.of(Path.of("/etc/ha.d/resource.d", spec.agent()), Path.of("/etc/init.d", spec.agent())));
        }
        return agent(spec.token());
    }
}
