/**
 * The default {@link org.jheartbeat.resources.ResourceAgents}: maps {@code IPaddr}/{@code IPaddr2}
 * to the built-in IP agent and every other name to a script found in {@code <configDir>/resource.d}
 * then the init.d directory ({@link org.jheartbeat.resources.lookup.ScriptLocator}), as Heartbeat
 * 3.0.6 ResourceManager's {@code scriptpath}. The only package that wires {@code ip} and
 * {@code script} together; must not import {@code group}.
 */
package org.jheartbeat.resources.lookup;
