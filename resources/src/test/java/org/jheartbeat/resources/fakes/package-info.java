/**
 * Test fakes of the resource agent SPI: {@code FakeAgent} (scripted start/stop/status outcomes
 * with a shared call journal) and {@code FakeAgents} (a {@code ResourceAgents} handing them out by
 * token). Process fakes come from the core testkit ({@code RecordingProcessRunner}). Never sleep,
 * never touch the system.
 */
package org.jheartbeat.resources.fakes;
