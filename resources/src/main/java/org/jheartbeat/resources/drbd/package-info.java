/**
 * The built-in {@code drbddisk} (Heartbeat's DRBD wrapper from drbd-utils): promote with {@code
 * drbdadm primary}, demote with {@code drbdadm secondary}, status from {@code drbdadm role}.
 * Must not import {@code ip}, {@code group} or {@code lookup}.
 */
package org.jheartbeat.resources.drbd;
