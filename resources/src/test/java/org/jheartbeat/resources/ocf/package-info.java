/**
 * Tests of the OCF class: return codes, the environment and timeouts, the meta-data of the real
 * IPaddr2 and Filesystem agents (skipped without resource-agents) and hostile XML.
 */
package org.jheartbeat.resources.ocf;
