/**
 * STONITH through a UPS managed by NUT (type {@code nut}): {@code upscmd} sends an instant command
 * to {@code upsd}, {@code upsc} confirms the result in {@code ups.status} (facts stonith-sync §4;
 * parameter names as cluster-glue's {@code external/nut}).
 */
package org.jheartbeat.stonith.device.nut;
