/** Tests of the daemon assembly: node identity. */
package org.jheartbeat.cli.daemon;
