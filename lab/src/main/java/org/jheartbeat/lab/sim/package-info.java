/**
 * Lab tools: a faithful APC Smart-UPS simulator ({@link org.jheartbeat.lab.sim.ApcSmartSimulator}, a
 * command-line tool and an in-process test fixture) built on the pure UPS model
 * {@link org.jheartbeat.lab.sim.ApcSmartUps}. Built into {@code lab/target/lab-sim.jar}, which
 * {@code lab/lab.sh} runs with {@code hb.jar} on the class path (for heartbeat-core, jSerialComm and
 * logging); neither {@code hb.jar} nor the Debian package ships it.
 */
package org.jheartbeat.lab.sim;
