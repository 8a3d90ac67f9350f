/**
 * Tests of sync.yaml: the parser's FILE:LINE messages, one per mistake, the resolution of jobs
 * against the cluster configuration, and cron schedules with five (Unix) or six (seconds first)
 * fields.
 */
package org.jheartbeat.sync.config;
