/**
 * Tests of the APC Smart-UPS client: configuration checks and names as cluster-glue gives them (no
 * serial I/O), and the byte-level dialogue against scripted UPS replies on the traces of facts
 * stonith-sync section 1.4, with fake time.
 */
package org.jheartbeat.stonith.device.apcsmart;
