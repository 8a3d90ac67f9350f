/**
 * The built-in {@code MailTo} resource: a mail to the admins when its group starts or stops on this node,
 * Heartbeat's own habit ({@code MailTo::root::subject} in haresources), without Heartbeat's scripts.
 */
package org.jheartbeat.resources.mail;
