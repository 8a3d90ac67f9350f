/**
 * STONITH through an APC Smart-UPS on a serial line, speaking the protocol exactly as cluster-glue's
 * {@code apcsmart} plugin does (facts stonith-sync §1). {@link org.jheartbeat.stonith.device.apcsmart.ApcSmartDialogue}
 * is the pure decision kernel (bytes and {@code nowNanos} in, bytes and an {@code S_*} result out; no clock,
 * no I/O); {@link org.jheartbeat.stonith.device.apcsmart.ApcSmartDevice} is the thin edge that owns the uucp
 * lock and the serial port (jSerialComm). Depends on the stonith SPI and heartbeat-core's time and serial-lock
 * helpers only; nothing outside this package may import jSerialComm through it.
 */
package org.jheartbeat.stonith.device.apcsmart;
