/**
 * Sequencing of one haresources group, as Heartbeat 3.0.6 ResourceManager's {@code takegroup} and
 * {@code givegroup}: start left to right with rollback on the first failure, stop right to left
 * with retries, and status summaries. Blocking; the cluster loop calls it from a worker thread.
 * Critical conditions are logged at ERROR with the SLF4J marker {@code CRIT} (Heartbeat's {@code
 * CRIT:} level), so a Heartbeat-style layout can print them as such. Depends only on the SPI in
 * {@code org.jheartbeat.resources} and core config types; must not import {@code script}, {@code
 * ip} or {@code lookup}.
 */
package org.jheartbeat.resources.group;
