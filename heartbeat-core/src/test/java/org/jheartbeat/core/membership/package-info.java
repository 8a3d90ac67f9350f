/**
 * Tests of membership on a fake clock: the failure detector's initdead, deadtime and warntime (in
 * ms, the peer's advertised deadtime included) and the sequence tracker's duplicates, gaps,
 * replays and restarts, as Heartbeat 3.0.6 judges them.
 */
package org.jheartbeat.core.membership;
