/**
 * The daemon's group executor ({@link org.jheartbeat.resources.executor.ResourceGroupExecutor}): the
 * cluster loop's {@code GroupExecutor}, running each resource group's starts, stops, probes and monitor
 * checks on one worker thread per group with the resources module's agents and runner, and a
 * {@code Lifecycle} hook the daemon uses to tie sync jobs to group hand-overs.
 */
package org.jheartbeat.resources.executor;
