/**
 * The imperative shell: {@link org.jheartbeat.core.loop.ClusterLoop} runs a
 * {@link org.jheartbeat.core.protocol.NodeEngine} on one thread and executes its effects through the
 * medium and {@link org.jheartbeat.core.loop.GroupExecutor} ports. The only place that reads the clocks
 * for the protocol. {@link org.jheartbeat.core.loop.LoopGuard} keeps the loop running whatever a step
 * throws; frames waiting for it are bounded.
 */
package org.jheartbeat.core.loop;
