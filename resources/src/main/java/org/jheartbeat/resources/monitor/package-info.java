/**
 * Watching resources while they run (issue 14 item 2): the pure decision kernel that says, for each
 * failed monitor, whether a resource is restarted in place or its whole group moves, on an injected
 * monotonic clock. Running the monitors (off the loop thread) and acting on the verdicts are the
 * group executor's business.
 */
package org.jheartbeat.resources.monitor;
