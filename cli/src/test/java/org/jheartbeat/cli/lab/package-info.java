/**
 * Lab integration tests (failsafe, root only): two jheartbeat daemons, or one and a real Heartbeat
 * 3.0.6 node, in network namespaces driven through lab/lab.sh by {@link
 * org.jheartbeat.cli.lab.Lab}, each lab with a unique id and torn down after the test. They cover
 * failover, operator hand-overs, control-socket responsiveness, start-up reconciliation, failure
 * handling, serial and multicast media, STONITH through the simulated APC UPS
 * (LAB_STONITH=apcsmart), config mismatch and push, replication and logging stalls, one issue
 * point each. Bounds only catch hangs; measured figures are printed, not asserted.
 */
package org.jheartbeat.cli.lab;
