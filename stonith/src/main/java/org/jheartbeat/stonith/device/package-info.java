/**
 * Helpers shared by the device sub-packages: host-list parsing as cluster-glue does it
 * ({@link org.jheartbeat.stonith.device.HostList}) and an injectable wait
 * ({@link org.jheartbeat.stonith.device.Sleeper}) so tests never sleep. Each device lives in its
 * own sub-package {@code org.jheartbeat.stonith.device.<name>}.
 */
package org.jheartbeat.stonith.device;
