/**
 * Test fixtures published in heartbeat-core's test-jar for every module: fakes of core ports
 * ({@code RecordingProcessRunner} for {@code ProcessRunner}). Fixtures are deterministic, never
 * sleep and never touch the real system. Must not import resources, stonith, sync or cli.
 */
package org.jheartbeat.core.testkit;
