/**
 * Tests of the UDP media on the loopback interface only (multicast group 239.255.77.x with TTL 0,
 * so nothing leaves the host): group membership on the named interface and sending to the group.
 */
package org.jheartbeat.core.media.udp;
