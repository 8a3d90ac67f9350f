/**
 * The {@code meatware} device (cluster-glue {@code meatware.c} and {@code meatclient}; facts
 * stonith-sync §2.1): a human resets the node and confirms, in-process or through a file in the
 * run directory (see {@link org.jheartbeat.stonith.device.meatware.MeatwareDevice}).
 */
package org.jheartbeat.stonith.device.meatware;
