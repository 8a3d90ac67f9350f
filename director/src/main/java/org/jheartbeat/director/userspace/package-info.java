/**
 * The user-space director: a TCP/UDP director that proxies both directions (LVS-NAT
 * style) for hosts without IPVS, behind the same {@link org.jheartbeat.director.table.TableBackend}
 * as the kernel's. {@link org.jheartbeat.director.userspace.sched.ServiceScheduling} is the contract
 * between the data path (Netty) and the decision model (the kernel's schedulers, connection
 * accounting and persistence, on an injected clock).
 */
package org.jheartbeat.director.userspace;
