/**
 * Running external programs (resource scripts, STONITH plugins, rsync, ssh, blkid/e2fsck/mount)
 * behind one blocking port, {@link org.jheartbeat.core.exec.ProcessRunner}, so that every caller can
 * be tested on argv alone with the testkit's {@code RecordingProcessRunner}. Owns {@code ProcessSpec},
 * {@code ProcessResult}, {@code ProcessExit} and the real {@code OsProcessRunner} (Apache
 * commons-exec; timeout and interrupt kill the whole process tree; a streaming variant for rsync's
 * progress and ssh's stdin). Nothing else in jheartbeat starts a process. Must not import
 * resources, stonith, sync, Netty or any config type: it knows programs and bytes, not clusters.
 */
package org.jheartbeat.core.exec;
