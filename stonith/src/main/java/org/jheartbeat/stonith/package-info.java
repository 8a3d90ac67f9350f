/**
 * STONITH (fencing): the device SPI and its adapters (APC Smart-UPS on a serial line, cluster-glue
 * external plugins, fence agents, ssh, NUT, meatware, null) and the fencing policy. Depends on
 * heartbeat-core only. Empty in this release: the takeover machine reports "No STONITH device
 * configured." and takes over without fencing, as Heartbeat 3.0.6 does without a device.
 */
package org.jheartbeat.stonith;
