/**
 * Alerts: jheartbeat.yaml's {@code alerts:} rules applied to the journal's events, as Pacemaker's alert
 * agents and keepalived's notify scripts. {@link org.jheartbeat.cli.alert.AlertDispatcher} is an
 * {@code EventSink}: the loop hands it events and it only queues them; scripts and mails run on a thread
 * per rule, each bounded, so a hanging script or a dead SMTP server delays nothing else. The rate limit
 * ({@link org.jheartbeat.cli.alert.RateWindow}) and the texts ({@link org.jheartbeat.cli.alert.AlertText})
 * are pure.
 */
package org.jheartbeat.cli.alert;
