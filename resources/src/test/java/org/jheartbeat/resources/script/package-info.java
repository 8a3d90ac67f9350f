/**
 * Tests of script resource agents with real /bin/sh scripts: status decided by the words the
 * script prints, as Heartbeat 3.0.6 does, not by its exit code; arguments before the operation;
 * start skipped when already running.
 */
package org.jheartbeat.resources.script;
