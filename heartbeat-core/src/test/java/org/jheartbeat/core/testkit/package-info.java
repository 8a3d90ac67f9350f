/**
 * Test fixtures published in heartbeat-core's test-jar for every module's tests: config directories
 * ({@link org.jheartbeat.core.testkit.ConfigDirBuilder}), and later fake clocks, schedulers and media.
 * Depends on heartbeat-core only; must not depend on JUnit so that any test framework can use it.
 */
package org.jheartbeat.core.testkit;
