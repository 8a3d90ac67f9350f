/**
 * Helpers shared by the device sub-packages: host-list parsing as cluster-glue does it
 * ({@link org.jheartbeat.stonith.device.HostList}); devices wait through the core's
 * {@link org.jheartbeat.core.time.Sleeper} so tests never sleep. Each device lives in its
 * own sub-package {@code org.jheartbeat.stonith.device.<name>}.
 */
package org.jheartbeat.stonith.device;
