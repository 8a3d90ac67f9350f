/**
 * The built-in {@code Filesystem} resource of haresources: Heartbeat's positional form mapped onto the
 * OCF {@code Filesystem} agent of resource-agents.
 */
package org.jheartbeat.resources.fs;
