/**
 * Running external programs (resource scripts, STONITH plugins, rsync) behind one blocking port,
 * {@link org.jheartbeat.core.exec.ProcessRunner}, so that every caller can be tested on argv
 * alone with the testkit's {@code RecordingProcessRunner}. Owns {@code ProcessSpec},
 * {@code ProcessResult} and the real {@code OsProcessRunner} (ProcessBuilder, timeout, kill of the
 * whole process tree). Must not import resources, stonith, sync, Netty or any config type: it
 * knows programs and bytes, not clusters.
 */
package org.jheartbeat.core.exec;
