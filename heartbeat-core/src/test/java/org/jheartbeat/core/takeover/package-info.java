/**
 * Tests of the takeover machine: every state and event cell against the table in
 * docs/design/takeover.md, read from the document so the two cannot drift, and disputed groups
 * never started.
 */
package org.jheartbeat.core.takeover;
