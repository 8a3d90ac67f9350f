/**
 * The catalogue of STONITH device types by ha.cf name ({@link
 * org.jheartbeat.stonith.registry.StonithDevices}): the built-in devices, the installed cluster-glue
 * external plugins and fence agents, and the positional {@code stonith_host}/{@code -p} parameter
 * mapping. It sits above both the SPI ({@code org.jheartbeat.stonith}) and the device sub-packages,
 * which it instantiates; nothing below imports it, so the SPI and the devices stay free of cycles.
 */
package org.jheartbeat.stonith.registry;
