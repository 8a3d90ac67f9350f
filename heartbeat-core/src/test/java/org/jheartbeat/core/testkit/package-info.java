/**
 * Test fixtures published in heartbeat-core's test-jar for every module's tests: config directories
 * ({@link org.jheartbeat.core.testkit.ConfigDirBuilder}), a fake clock
 * ({@link org.jheartbeat.core.testkit.FakeClock}), a two-node protocol harness
 * ({@link org.jheartbeat.core.testkit.TwoNodeHarness}) and fakes of core ports
 * ({@link org.jheartbeat.core.testkit.RecordingProcessRunner}). Deterministic, never sleep, never touch
 * the real system. Depends on heartbeat-core only; must not import resources, stonith, sync or cli.
 */
package org.jheartbeat.core.testkit;
