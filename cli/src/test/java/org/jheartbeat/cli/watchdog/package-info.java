/** Tests of the daemon's watchdogs against a stand-in device (a temporary file or FIFO) and a real unix datagram socket. */
package org.jheartbeat.cli.watchdog;
