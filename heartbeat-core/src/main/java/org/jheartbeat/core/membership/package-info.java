/**
 * Membership: which nodes and links are alive ({@link org.jheartbeat.core.membership.FailureDetector}),
 * sequence and generation tracking ({@link org.jheartbeat.core.membership.SequenceTracker}), and the
 * events they emit. Pure decision kernels driven by the caller's clock; they never call resources,
 * STONITH or I/O. Imports only {@code core.config}.
 */
package org.jheartbeat.core.membership;
