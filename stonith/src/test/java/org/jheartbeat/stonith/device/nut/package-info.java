/**
 * Tests of the NUT device with a scripted process runner standing in for upscmd/upsc: off and
 * reset commands and their arguments as cluster-glue's defaults, waiting for the UPS to report the
 * outcome, and an unconfirmed outcome being a failure.
 */
package org.jheartbeat.stonith.device.nut;
