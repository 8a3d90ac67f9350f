/**
 * The {@code ssh} test device (cluster-glue {@code ssh.c}, facts stonith-sync §2.1): asks the
 * victim to reboot itself over ssh. Test only: a hung node cannot be fenced this way.
 */
package org.jheartbeat.stonith.device.ssh;
