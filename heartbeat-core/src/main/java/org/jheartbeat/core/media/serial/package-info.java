/**
 * The serial heartbeat medium ({@code serial /dev/ttyS0} in {@code ha.cf}; Heartbeat 3.0.6
 * {@code lib/plugins/HBcomm/serial.c}, facts G.1): {@link org.jheartbeat.core.media.serial.SerialMedium}
 * with its pure kernels {@link org.jheartbeat.core.media.serial.SerialFramer} (classic {@code >>>}/{@code <<<}
 * framing, bounded, resynchronising) and {@link org.jheartbeat.core.media.serial.SerialPacer} (line-rate
 * write pacing). The only package that may import jSerialComm ({@code com.fazecast}); it moves bytes and
 * never decodes or authenticates them.
 */
package org.jheartbeat.core.media.serial;
