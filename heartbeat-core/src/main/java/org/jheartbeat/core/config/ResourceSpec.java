package org.jheartbeat.core.config;

import java.util.List;
import java.util.Objects;

/**
 * One resource token of a haresources line: {@code agent[::arg1[::arg2...]]}. A bare IPv4 token
 * (starts with a digit, four dotted parts, optional {@code /prefix/iface}) is shorthand for
 * {@code IPaddr::token}, as in Heartbeat 3.0.6's ResourceManager.
 *
 * @param agent the script or built-in agent name, e.g. {@code IPaddr}, {@code labweb}
 * @param args  the {@code ::}-separated arguments, in order (may be empty)
 * @param token the token as written in the file, e.g. {@code 198.18.0.100/24/eth0}
 */
public record ResourceSpec(String agent, List<String> args, String token) {
    /** The agent name a bare IP token stands for. */
    public static final String IPADDR = "IPaddr";

    public ResourceSpec {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(token, "token");
        args = List.copyOf(args);
    }

    /**
     * @return the token's class and typed arguments
     * @throws IllegalArgumentException as {@link AgentRef#parse} (never for a token the parser accepted)
     */
    public AgentRef agentRef() {
        return AgentRef.parse(this);
    }

    /**
     * The arguments the agent gets: {@link #args} without the {@code op_} options of a Heartbeat-class token
     * ({@link AgentRef.Heartbeat#args}); all of them when the token does not parse (its error is reported apart).
     */
    public List<String> agentArgs() {
        try {
            return agentRef() instanceof AgentRef.Heartbeat h ? h.args() : args;
        } catch (IllegalArgumentException e) {
            return args;
        }
    }

    @Override
    public String toString() {
        return token;
    }
}
