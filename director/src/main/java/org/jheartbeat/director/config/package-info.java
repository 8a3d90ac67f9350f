/**
 * ldirectord.cf: the reader ({@link org.jheartbeat.director.config.LdirectordParser}, every directive
 * of ldirectord 4.x with its code defaults, problems as file:line) and the immutable model it gives
 * (virtual services, real servers, fallback servers, globals). Pure: no I/O but reading the file and
 * resolving names; depends on core's {@code ConfigDiagnostic} only.
 */
package org.jheartbeat.director.config;
