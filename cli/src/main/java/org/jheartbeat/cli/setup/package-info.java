/**
 * {@code hb setup}: from two bare nodes to a running pair. The answers (asked on a terminal or given as
 * options) become the four configuration files by a pure kernel ({@link org.jheartbeat.cli.setup.SetupFiles});
 * what to do with the files already on both nodes is another pure decision
 * ({@link org.jheartbeat.cli.setup.SetupPlan}); the prompts read from an injected
 * {@link org.jheartbeat.cli.setup.SetupPrompts.Terminal}, and the daemons are started through an injected
 * {@link org.jheartbeat.cli.setup.ServiceStarter}.
 */
package org.jheartbeat.cli.setup;
