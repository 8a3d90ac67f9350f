/**
 * The built-in {@code Hostname::NAME} resource: a node takes over its peer's names (NetBIOS through a
 * dedicated Samba {@code nmbd}, DNS through an RFC 2136 update with {@code nsupdate}, and on request the
 * machine's own host name) while it holds the peer's group, and gives them back on stop. Pure parts:
 * {@link org.jheartbeat.resources.names.HostnameSpec} (the token), {@link
 * org.jheartbeat.resources.names.NameCommands} (argv, nsupdate script, smb.conf text), {@link
 * org.jheartbeat.resources.names.NsupdateOutcome} and {@link org.jheartbeat.resources.names.DigAnswer}
 * (reading the programs); the edge is {@link org.jheartbeat.resources.names.HostnameAgent} and the
 * record of taken host names {@link org.jheartbeat.resources.names.TakenHostNames}.
 */
package org.jheartbeat.resources.names;
