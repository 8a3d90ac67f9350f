/**
 * The takeover decision kernel: {@link org.jheartbeat.core.takeover.TakeoverMachine} with its sealed
 * events, actions and announcements. Pure; never imports resources, STONITH, wire encoding or I/O.
 */
package org.jheartbeat.core.takeover;
