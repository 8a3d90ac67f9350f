/**
 * The e-mail alerts' edge ({@code emailalert}, {@code smtp}): the alert the kernel decided
 * ({@link org.jheartbeat.director.alert.Alert}, with the {@link org.jheartbeat.director.alert.DaemonStatus}
 * it reports), the message text
 * ({@link org.jheartbeat.director.alert.AlertMessage}), a small SMTP client
 * ({@link org.jheartbeat.director.alert.SmtpClient}), the local sendmail pipe
 * ({@link org.jheartbeat.director.alert.SendmailPipe}) and the single-thread executor with a bounded
 * queue that sends them off the decision thread ({@link org.jheartbeat.director.alert.AlertMailer}).
 * What to send and when is decided by {@code org.jheartbeat.director.runtime.DirectorKernel}.
 */
package org.jheartbeat.director.alert;
