/**
 * The running director: the pure decision kernel ({@link org.jheartbeat.director.runtime.DirectorKernel},
 * ldirectord's start, check, fallback, reload and stop sequences), the threaded shell that schedules
 * checks off any event loop and applies the kernel's commands
 * ({@link org.jheartbeat.director.runtime.Director}), its control socket and the daemon with
 * autoreload. Checks are obtained only through {@code org.jheartbeat.director.check.Checks}.
 */
package org.jheartbeat.director.runtime;
