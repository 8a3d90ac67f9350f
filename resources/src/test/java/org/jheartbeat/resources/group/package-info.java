/**
 * Tests of resource groups with in-memory agents: starts left to right after a status check,
 * rollback right to left on the first failure, stops, and the start-up probe releasing every group
 * found running before the node joins.
 */
package org.jheartbeat.resources.group;
