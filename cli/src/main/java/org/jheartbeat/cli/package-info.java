/**
 * The {@code hb} command line: its entry point ({@link org.jheartbeat.cli.Main}, {@code java -jar
 * hb.jar}), the picocli root command ({@link org.jheartbeat.cli.HbCommand}) with the help texts of
 * shared options ({@code HbMessages.properties}), the exit-code contract ({@link
 * org.jheartbeat.cli.error.ExitCodes}; 3 and 4 as LSB's "not running" and "insufficient privilege"), and the
 * one place that turns an escaping exception into that code and a one-line {@code hb: ...} message
 * without a stack trace ({@link org.jheartbeat.cli.ExceptionMapper}, {@link
 * org.jheartbeat.cli.error.UserException}). The commands themselves are in {@code cli.command}, the daemon in
 * {@code cli.daemon}.
 */
package org.jheartbeat.cli;
