/**
 * ClusterLabs fence agents (type {@code fence_<name>}): options as {@code key=value} lines on
 * stdin, actions on/off/reboot/status/monitor, exit codes 0/1/2, {@code -o metadata} XML
 * (fence-agents {@code doc/FenceAgentAPI.md} and {@code fencing.py}; facts stonith-sync §3).
 */
package org.jheartbeat.stonith.device.fenceagent;
