/**
 * Tests of the null device: every operation succeeds, even for hosts not listed, as cluster-glue's
 * null plugin does; a host list is required.
 */
package org.jheartbeat.stonith.device.nil;
