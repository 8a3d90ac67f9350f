/**
 * Tests of the meatware device: a reset waits for an operator's confirmation, given in process
 * from another thread or from a separate process through the request and acknowledgement files;
 * stale acknowledgements are ignored.
 */
package org.jheartbeat.stonith.device.meatware;
