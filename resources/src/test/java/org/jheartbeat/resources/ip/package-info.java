/**
 * Tests of the IPaddr agent: every address form of haresources, the ip(8) and arping command lines
 * and their parsed output, the routing table's choice of interface and prefix, the config check
 * and the agent agreeing on every form, and (IpAddrAgentIT, root) the real kernel inside a throw-
 * away network namespace on 198.18.0.0/15 only ({@link
 * org.jheartbeat.resources.ip.NamespacedProcessRunner}).
 */
package org.jheartbeat.resources.ip;
