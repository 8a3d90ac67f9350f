/**
 * The imperative shell: {@link org.jheartbeat.core.loop.ClusterLoop} runs a
 * {@link org.jheartbeat.core.protocol.NodeEngine} on one thread and executes its effects through the
 * medium and {@link org.jheartbeat.core.loop.GroupExecutor} ports. The only place that reads the clocks
 * for the protocol.
 */
package org.jheartbeat.core.loop;
