/**
 * Tests of the operating-system process runner on real /bin/sh children: exit code, bounded
 * standard output and error, environment, standard input from /dev/null, and a background child
 * that keeps the output open not blocking the caller.
 */
package org.jheartbeat.core.exec;
