/**
 * Tests of fence agents run for real as /bin/sh scripts: names from their metadata, options on
 * standard input with the plug from the host map, exit codes and configuration errors.
 */
package org.jheartbeat.stonith.device.fenceagent;
