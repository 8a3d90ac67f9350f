/**
 * Tests of the APC Smart-UPS simulator on the UPS end of a socat PTY pair, driven both by cluster-
 * glue's real client (stonith -t apcsmart) and by the daemon's own ApcSmartDevice: the outlet goes
 * off and on and the lab's power commands run. Failsafe; needs socat and cluster-glue.
 */
package org.jheartbeat.lab.sim;
