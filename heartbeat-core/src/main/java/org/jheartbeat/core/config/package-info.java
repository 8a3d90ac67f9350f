/**
 * Readers and validation for the three files of a Heartbeat 3.0.6 config directory
 * ({@code /etc/ha.d}): {@code ha.cf}, {@code authkeys} and {@code haresources}, producing immutable
 * records ({@link org.jheartbeat.core.config.ClusterConfig} and its parts) plus a list of
 * {@link org.jheartbeat.core.config.ConfigDiagnostic}s ({@code file:line: message}).
 *
 * <p>The shape follows STYLE rule 8: every ha.cf keyword is one row of
 * {@link org.jheartbeat.core.config.DirectiveTable}; each file has one parser that reports problems
 * instead of throwing; {@link org.jheartbeat.core.config.ConfigValidator} holds every cross-field rule
 * in one method; {@link org.jheartbeat.core.config.ConfigLoader} reads a directory and collects every
 * problem of every file. The rules are Heartbeat 3.0.6's ({@code heartbeat/config.c},
 * {@code heartbeat/auth.c}, ha.cf(5), the ResourceManager script), learnt as facts; where jheartbeat
 * is stricter (udpport after media, CRLF files, authkeys owner) the diagnostic says so.
 *
 * <p>This package depends only on the JDK and {@code org.jheartbeat.core.auth}. It must not import
 * media, membership, takeover, Netty or any other module of ours.
 */
package org.jheartbeat.core.config;
