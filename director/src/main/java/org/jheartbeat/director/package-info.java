/**
 * The load-balancing director: an ldirectord-compatible reader of {@code ldirectord.cf}, health
 * checks of real servers, the virtual-service table and the backends that apply it (the kernel's
 * IPVS through {@code ipvsadm}, or a user-space director).
 *
 * <p>Behaviour follows ldirectord 4.x (Debian {@code ldirectord 1:4.12.0-2}) and {@code ipvsadm}
 * 1.31 as gathered in {@code shared/facts/lvs.md}; no code or prose is taken from them.
 */
package org.jheartbeat.director;
