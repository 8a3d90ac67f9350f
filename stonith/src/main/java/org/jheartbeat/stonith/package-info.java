/**
 * STONITH (fencing): the device SPI ({@link org.jheartbeat.stonith.StonithDevice},
 * {@link org.jheartbeat.stonith.ResetRequest}, {@link org.jheartbeat.stonith.StonithResult}) and, in
 * sub-packages, the devices (APC Smart-UPS on a serial line, cluster-glue external plugins, fence
 * agents, NUT, ssh, meatware, null) and the catalogue of device types by ha.cf name
 * ({@code stonith.registry}), which sits above both. Depends on heartbeat-core only; core never
 * imports it (the takeover machine speaks of fencing in its own terms and the daemon wires the two
 * together).
 */
package org.jheartbeat.stonith;
