/**
 * Lab tools: a faithful APC Smart-UPS simulator ({@link org.jheartbeat.stonith.sim.ApcSmartSimulator}, a
 * command-line tool and an in-process test fixture) built on the pure UPS model
 * {@link org.jheartbeat.stonith.sim.ApcSmartUps}. Shipped in main code because the lab runs it; nothing in
 * the daemon depends on this package.
 */
package org.jheartbeat.stonith.sim;
