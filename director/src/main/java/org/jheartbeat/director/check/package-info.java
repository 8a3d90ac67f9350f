/**
 * Health checks of real servers, as ldirectord's {@code checktype} and {@code service}
 * directives name them. Each check is a blocking call bounded by its timeout; the director runs
 * them on its own check threads, never on an event loop.
 *
 * <p>{@link org.jheartbeat.director.check.Checks#forService} maps every checktype and service
 * ldirectord 4.x accepts. The protocol checks use one deadline for the whole exchange (connect,
 * TLS handshake, every read), bound what they read, accept any TLS certificate as ldirectord
 * does, and turn every misbehaviour into a down result with the reason: http/https/http_proxy
 * on a raw socket, ftp, smtp/submission, pop/pops, imap/imaps, nntp, simpletcp, sip, radius
 * and a hand-rolled DNS codec; ldap/ldaps through the JDK's JNDI; mysql and pgsql as a greeting
 * check (no JDBC driver); ping and external through the project's process runner.
 */
package org.jheartbeat.director.check;
