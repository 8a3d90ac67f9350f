/**
 * {@code hb report}, as Heartbeat's {@code hb_report} and Pacemaker's {@code crm_report}: what one node
 * collects for a time window (its part: logs, event journal, configuration with secrets masked, status,
 * versions, packages) and the summary of both nodes' parts. Pure kernels ({@link TimeSpec},
 * {@link SecretMask}, {@link LogWindow}, {@link ReportSummary}) and thin I/O edges ({@link NodePart},
 * {@link TarFiles}); the command is {@code org.jheartbeat.cli.command.ReportCommand}.
 */
package org.jheartbeat.cli.report;
