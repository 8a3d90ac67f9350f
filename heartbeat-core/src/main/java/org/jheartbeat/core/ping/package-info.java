/**
 * Ping nodes and the ipfail rule of Heartbeat 3.0.6 ({@code ping}, {@code ping_group},
 * {@code respawn hacluster /usr/lib/heartbeat/ipfail}): {@link org.jheartbeat.core.ping.PingNodes}
 * keeps each ping pseudo-node's status from the answers the ICMP edge reports, and
 * {@link org.jheartbeat.core.ping.IpfailRule} turns this node's and the peer's counts of live ping
 * nodes into a verdict. Both are pure, on an injected monotonic clock; the ICMP probes live in the
 * daemon's edge and never run on the loop thread.
 */
package org.jheartbeat.core.ping;
