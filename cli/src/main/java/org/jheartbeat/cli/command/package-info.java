/**
 * The {@code hb} subcommands (picocli): {@code daemon}, {@code status}, {@code standby}/{@code
 * takeover}/{@code failback} (Heartbeat 3.0.6's {@code hb_standby}/{@code hb_takeover} sets), {@code
 * cl-status} (as Heartbeat's {@code cl_status}), {@code cleanup}, {@code config check|diff|push},
 * {@code resources list|show|check|add|remove|move|...}, {@code stonith ...}, {@code sync status|run}
 * and {@code backup status|run|list|restore|verify}. Each one parses its options, then reads or writes this
 * node's files, asks the running daemon over its control socket, or drives a STONITH device, rsync or
 * ssh through the runtime classes, and prints; user errors are {@link
 * org.jheartbeat.cli.error.UserException}s with a documented exit code ({@code hb COMMAND --help} lists
 * them). {@code --config-dir} (default {@code /etc/ha.d}) and {@code --state-dir} (default {@code
 * /var/lib/jheartbeat}) come from the shared mixins {@link org.jheartbeat.cli.command.ConfigDirOption}
 * and {@link org.jheartbeat.cli.command.StateDirOption}.
 */
package org.jheartbeat.cli.command;
