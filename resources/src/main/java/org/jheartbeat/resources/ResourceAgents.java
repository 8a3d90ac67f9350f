package org.jheartbeat.resources;

import org.jheartbeat.core.config.ResourceSpec;

/**
 * Port that turns a haresources token into the agent that manages it. The default implementation
 * is {@code org.jheartbeat.resources.lookup.StandardResourceAgents} (built-in IP agent, then
 * {@code resource.d}, then {@code /etc/init.d}, as Heartbeat 3.0.6 ResourceManager's {@code
 * scriptpath}); tests use {@code fakes.FakeAgents}.
 */
@FunctionalInterface
public interface ResourceAgents {
    /**
     * @param spec one resource token of a group
     * @return an agent bound to that resource and its arguments
     * @throws ResourceAgentException (or a subtype such as {@link AgentNotFoundException}) if no
     *         agent can manage the resource, e.g. no script by that name or an invalid IP token
     */
    ResourceAgent forSpec(ResourceSpec spec);
}
