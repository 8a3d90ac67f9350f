/**
 * The {@code null} STONITH device (cluster-glue {@code null.c}; facts stonith-sync §2.1): fences
 * nothing and reports success. For labs and tests only.
 */
package org.jheartbeat.stonith.device.nil;
