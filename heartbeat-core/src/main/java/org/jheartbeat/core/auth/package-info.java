/**
 * Authentication of Heartbeat 3.0.6 cluster messages: the authkeys model ({@link
 * org.jheartbeat.core.auth.AuthKeys}, {@link org.jheartbeat.core.auth.AuthKey}, {@link
 * org.jheartbeat.core.auth.AuthMethod}) and {@link org.jheartbeat.core.auth.MessageAuthenticator},
 * which computes and checks the {@code "<index> <hex>"} strings carried in the netstring trailer and
 * in the inner {@code auth=} field (HMAC-SHA1, HMAC-MD5 and Heartbeat's CRC-32). It owns only the
 * arithmetic over byte arrays; it knows nothing about message framing, so it must not import {@code
 * org.jheartbeat.core.wire}, Netty, or any I/O, clock or logging API.
 */
package org.jheartbeat.core.auth;
