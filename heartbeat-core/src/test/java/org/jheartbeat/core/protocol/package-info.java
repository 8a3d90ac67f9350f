/**
 * Whole-protocol scenarios: two node engines joined by the real codec on a fake clock, no sleeps;
 * failover, failures, disputed groups, config digests, the reason carried by each group operation,
 * bad packets counted and never fatal, and the replay of a lifecycle captured from two real
 * Heartbeat 3.0.6 nodes. Every scenario also checks that no group ever runs on both nodes.
 */
package org.jheartbeat.core.protocol;
