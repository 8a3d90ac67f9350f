/**
 * The user-facing failure contract of {@code hb}, a leaf that every other {@code cli} package may
 * use: the exit codes ({@link org.jheartbeat.cli.error.ExitCodes}, shared with the systemd unit and
 * listed by {@code hb --help}) and the one-line failure a command throws
 * ({@link org.jheartbeat.cli.error.UserException}). Turning an escaping exception into that code and
 * message stays in {@code org.jheartbeat.cli.ExceptionMapper}, which sits above the commands.
 */
package org.jheartbeat.cli.error;
