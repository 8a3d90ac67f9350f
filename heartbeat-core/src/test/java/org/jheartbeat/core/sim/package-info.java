/**
 * A deterministic two-node cluster simulator, in the spirit of FoundationDB's simulation and
 * TigerBeetle's VOPR: two real {@link org.jheartbeat.core.protocol.NodeEngine}s (real takeover machine,
 * failure detector, codecs and authentication) on one simulated clock, driven by one seeded random
 * source, with simulated media (a UDP-like link and a serial-like line, each direction faulty on its
 * own), agents, a fencing device, operators and power. No threads, no real time. After every step the
 * {@link org.jheartbeat.core.sim.Invariants} are checked; a violation is reported with its seed and a
 * schedule shrunk by delta debugging ({@link org.jheartbeat.core.sim.Shrinker}). See
 * docs/simulation.md. Test code only; depends on heartbeat-core's main code and nothing else of ours.
 */
package org.jheartbeat.core.sim;
