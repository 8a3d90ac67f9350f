/**
 * Tests of the cluster loop with two real loops joined by an in-memory link in real time
 * (keepalive 500 ms): operator hand-overs, refused at once while another is in progress. Bounds
 * only catch hangs.
 */
package org.jheartbeat.core.loop;
