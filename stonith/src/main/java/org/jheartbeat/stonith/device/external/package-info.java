/**
 * cluster-glue external STONITH plugins (type {@code external/<name>}): shell scripts in
 * {@code /usr/lib/stonith/plugins/external} that speak the interface of cluster-glue
 * {@code external.c} and {@code README.external} (facts stonith-sync §2.4).
 */
package org.jheartbeat.stonith.device.external;
