/**
 * Tests of the control socket: the request grammar (round trips, one clear reason per malformed
 * line), the server on a real Unix socket (concurrent clients, silent and excess clients, rate-
 * limited incident lines) and the text and JSON renderings of status snapshots and config-digest
 * reports.
 */
package org.jheartbeat.core.control;
