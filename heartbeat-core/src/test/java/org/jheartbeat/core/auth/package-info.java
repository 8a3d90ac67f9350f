/**
 * Tests of message authentication: the crc, md5 and sha1 digests of Heartbeat 3.0.6's authkeys
 * methods, checked against known values (crc printed without zero padding, as Heartbeat does).
 */
package org.jheartbeat.core.auth;
