/**
 * Tests of the hb commands run in process through picocli's execute() ({@link
 * org.jheartbeat.cli.HbRun}: output, error and exit code as the user sees them), against real
 * files, stand-in daemons (a control server with a scripted handler) and, for backups, a real ext4
 * image on a loop device; the *IT classes need root. They check exit codes and one-line user
 * errors, never timing.
 */
package org.jheartbeat.cli;
