/**
 * The resource agent SPI of haresources (R1) resources: {@link
 * org.jheartbeat.resources.ResourceAgent} (start, stop, status of one configured resource), its
 * {@link org.jheartbeat.resources.AgentResult}, the {@link org.jheartbeat.resources.ResourceAgents}
 * lookup port and the typed errors. Implementations live in subpackages ({@code script}, {@code
 * ip}); the default lookup in {@code lookup}; group sequencing in {@code group}. This package must
 * import none of its subpackages, Netty or the cluster loop.
 */
package org.jheartbeat.resources;
