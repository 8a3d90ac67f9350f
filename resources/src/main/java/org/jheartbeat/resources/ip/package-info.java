/**
 * The built-in IP address takeover agent used for {@code IPaddr}/{@code IPaddr2} resources and
 * bare IP tokens of haresources: pure parsers ({@link org.jheartbeat.resources.ip.IpAddrSpec},
 * {@link org.jheartbeat.resources.ip.RouteTable}, {@link org.jheartbeat.resources.ip.AddressTable}),
 * pure argv builders ({@link org.jheartbeat.resources.ip.IpCommands}, {@link
 * org.jheartbeat.resources.ip.GratuitousArp}) and the agent itself, which runs iproute2 {@code ip}
 * and iputils {@code arping} through the core {@code ProcessRunner}. IPv4 only. Must not import
 * {@code script}, {@code group} or {@code lookup}.
 */
package org.jheartbeat.resources.ip;
