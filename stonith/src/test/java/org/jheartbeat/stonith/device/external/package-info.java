/**
 * Tests of cluster-glue external plugins run for real: a plugin written here that speaks
 * README.external and the installed external/ssh; configuration names, parameters in the
 * environment, exit codes mapped as cluster-glue maps them.
 */
package org.jheartbeat.stonith.device.external;
