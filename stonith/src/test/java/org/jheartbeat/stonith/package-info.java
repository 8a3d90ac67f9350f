/**
 * Tests of the STONITH device registry: every built-in type is created and configured, unknown
 * types say how to list the types, and installed cluster-glue plugins and fence agents are listed.
 */
package org.jheartbeat.stonith;
